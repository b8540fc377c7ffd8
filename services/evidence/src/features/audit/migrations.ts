import type { Migration } from '@platform/db';

/**
 * The audit log: one hash chain with gapless sequence numbers, and the signed checkpoints that anchor
 * it. Timestamps are ISO 8601 text (UTC, milliseconds) so the bytes that were hashed are the bytes
 * read back. Both tables are append-only at the database.
 */
export const auditLogMigration: Migration = {
  name: '0001_audit_log',
  sql: `
      CREATE TABLE audit_log (
        seq bigint PRIMARY KEY CHECK (seq >= 1),
        action text NOT NULL,
        source text NOT NULL CHECK (source IN ('evidence', 'claims')),
        entity_type text NOT NULL,
        entity_id text NOT NULL,
        actor text NOT NULL,
        event_id text,
        occurred_at text NOT NULL,
        recorded_at text NOT NULL,
        data jsonb NOT NULL,
        prev_hash text NOT NULL,
        hash text NOT NULL
      );
      CREATE INDEX audit_log_entity_idx ON audit_log (entity_id, seq);
      CREATE INDEX audit_log_action_idx ON audit_log (action, seq);
      CREATE TABLE audit_checkpoints (
        seq bigint PRIMARY KEY CHECK (seq >= 1),
        hash text NOT NULL,
        signed_at text NOT NULL,
        signature text NOT NULL,
        key_id text NOT NULL
      );

    CREATE OR REPLACE FUNCTION refuse_change_audit_log() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$;
    CREATE TRIGGER audit_log_no_update_delete BEFORE UPDATE OR DELETE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION refuse_change_audit_log();
    CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
      FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_audit_log();

    CREATE OR REPLACE FUNCTION refuse_change_audit_checkpoints() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'audit_checkpoints is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$;
    CREATE TRIGGER audit_checkpoints_no_update_delete BEFORE UPDATE OR DELETE ON audit_checkpoints
      FOR EACH ROW EXECUTE FUNCTION refuse_change_audit_checkpoints();
    CREATE TRIGGER audit_checkpoints_no_truncate BEFORE TRUNCATE ON audit_checkpoints
      FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_audit_checkpoints();`,
};

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

/**
 * Witness cosignatures of checkpoints (c2sp.org/tlog-cosignature signature lines, checked against a
 * configured witness key before they are stored) and the refusals witnesses report, with their evidence.
 * Append-only like the log.
 */
export const auditWitnessMigration: Migration = {
  name: '0010_audit_witness',
  sql: `
      CREATE TABLE audit_cosignatures (
        seq bigint NOT NULL CHECK (seq >= 1),
        witness text NOT NULL,
        cosigned_at bigint NOT NULL,
        signature_line text NOT NULL,
        received_at text NOT NULL,
        PRIMARY KEY (seq, witness)
      );
      CREATE TABLE audit_witness_refusals (
        id bigserial PRIMARY KEY,
        witness text NOT NULL,
        reason text NOT NULL CHECK (reason IN ('truncated', 'forked', 'inconsistent')),
        cosigned_checkpoint text NOT NULL,
        offered_checkpoint text NOT NULL,
        offered_size bigint NOT NULL,
        proof jsonb,
        refused_at text NOT NULL,
        received_at text NOT NULL
      );

    CREATE OR REPLACE FUNCTION refuse_change_audit_witness() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION '% is append-only: % is not allowed', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$;
    CREATE TRIGGER audit_cosignatures_no_update_delete BEFORE UPDATE OR DELETE ON audit_cosignatures
      FOR EACH ROW EXECUTE FUNCTION refuse_change_audit_witness();
    CREATE TRIGGER audit_cosignatures_no_truncate BEFORE TRUNCATE ON audit_cosignatures
      FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_audit_witness();
    CREATE TRIGGER audit_witness_refusals_no_update_delete BEFORE UPDATE OR DELETE ON audit_witness_refusals
      FOR EACH ROW EXECUTE FUNCTION refuse_change_audit_witness();
    CREATE TRIGGER audit_witness_refusals_no_truncate BEFORE TRUNCATE ON audit_witness_refusals
      FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_audit_witness();`,
};

/**
 * The background verifier's progress: the last tree head it verified (size and root), so each run checks
 * only what was appended since, and the break it raised, so a break is announced once. One row.
 */
export const auditWatchMigration: Migration = {
  name: '0011_audit_watch',
  sql: `
      CREATE TABLE audit_watch (
        id boolean PRIMARY KEY DEFAULT true CHECK (id),
        verified_size bigint NOT NULL DEFAULT 0 CHECK (verified_size >= 0),
        verified_root bytea,
        break_seq bigint,
        break_reason text,
        break_raised_at text
      );`,
};
