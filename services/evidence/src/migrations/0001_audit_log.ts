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
