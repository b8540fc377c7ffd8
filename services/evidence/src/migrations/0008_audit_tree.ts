import type { Migration } from '@platform/db';

/**
 * The audit log as an RFC 9162 Merkle tree beside the chain (leaf index = seq - 1): each record's
 * canonical bytes as they were hashed, every complete subtree's hash (level 0: the leaf hashes) so
 * that appends and proofs are O(log n), and the signed tree head (a C2SP checkpoint note) with each
 * checkpoint. Append-only like the log; no foreign key to audit_log, so a record deleted behind the
 * triggers' back still shows as a gap rather than being refused.
 */
export const auditTreeMigration: Migration = {
  name: '0008_audit_tree',
  sql: `
      CREATE TABLE audit_leaves (
        seq bigint PRIMARY KEY CHECK (seq >= 1),
        leaf_bytes bytea NOT NULL
      );
      CREATE TABLE audit_tree_nodes (
        level smallint NOT NULL CHECK (level BETWEEN 0 AND 63),
        idx bigint NOT NULL CHECK (idx >= 0),
        hash bytea NOT NULL CHECK (octet_length(hash) = 32),
        PRIMARY KEY (level, idx)
      );
      ALTER TABLE audit_checkpoints ADD COLUMN note text;

    CREATE OR REPLACE FUNCTION refuse_change_audit_leaves() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'audit_leaves is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$;
    CREATE TRIGGER audit_leaves_no_update_delete BEFORE UPDATE OR DELETE ON audit_leaves
      FOR EACH ROW EXECUTE FUNCTION refuse_change_audit_leaves();
    CREATE TRIGGER audit_leaves_no_truncate BEFORE TRUNCATE ON audit_leaves
      FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_audit_leaves();

    CREATE OR REPLACE FUNCTION refuse_change_audit_tree_nodes() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'audit_tree_nodes is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$;
    CREATE TRIGGER audit_tree_nodes_no_update_delete BEFORE UPDATE OR DELETE ON audit_tree_nodes
      FOR EACH ROW EXECUTE FUNCTION refuse_change_audit_tree_nodes();
    CREATE TRIGGER audit_tree_nodes_no_truncate BEFORE TRUNCATE ON audit_tree_nodes
      FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_audit_tree_nodes();`,
};
