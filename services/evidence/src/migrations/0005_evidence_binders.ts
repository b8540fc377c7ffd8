import type { Migration } from '@platform/db';

/** Binders are immutable: building again adds a new one. `manifest_json` holds the exact hashed bytes. */
export const bindersMigration: Migration = {
  name: '0005_evidence_binders',
  sql: `
      CREATE TABLE evidence_binders (
        binder_id uuid PRIMARY KEY,
        run_id uuid NOT NULL REFERENCES evidence_runs (run_id),
        final boolean NOT NULL,
        sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
        manifest_json text NOT NULL,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX evidence_binders_run_idx ON evidence_binders (run_id, created_at);

    CREATE OR REPLACE FUNCTION refuse_change_evidence_binders() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'evidence_binders is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$;
    CREATE TRIGGER evidence_binders_no_update_delete BEFORE UPDATE OR DELETE ON evidence_binders
      FOR EACH ROW EXECUTE FUNCTION refuse_change_evidence_binders();
    CREATE TRIGGER evidence_binders_no_truncate BEFORE TRUNCATE ON evidence_binders
      FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_evidence_binders();`,
};
