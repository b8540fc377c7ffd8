import { appendOnlySql, type Migration } from '@platform/db';

/** Binders are immutable: building again adds a new one. `manifest_json` holds the exact hashed bytes. */
export const bindersMigration: Migration = {
  name: '0005_evidence_binders',
  async up(db) {
    await db.raw(`
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
      ${appendOnlySql('evidence_binders')}`);
  },
};
