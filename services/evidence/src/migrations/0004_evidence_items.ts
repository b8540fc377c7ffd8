import type { Migration } from '@platform/db';

/**
 * Evidence is immutable once stored (append-only). A correction is a new item that `supersedes` an
 * older one of the same run; each item is superseded at most once, so corrections form a chain.
 * File bytes live content-addressed on disk; JSON evidence keeps its canonical JSON here.
 */
export const evidenceMigration: Migration = {
  name: '0004_evidence_items',
  sql: `
      CREATE TABLE evidence_items (
        evidence_id uuid PRIMARY KEY,
        run_id uuid NOT NULL REFERENCES evidence_runs (run_id),
        kind text NOT NULL CHECK (kind IN ('note', 'link', 'record', 'file')),
        title text NOT NULL,
        description text,
        url text,
        source text,
        collected_at timestamptz,
        out_of_period boolean NOT NULL DEFAULT false,
        supersedes uuid REFERENCES evidence_items (evidence_id),
        sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
        size_bytes bigint NOT NULL CHECK (size_bytes >= 0),
        content_type text NOT NULL,
        file_name text,
        content_json text,
        submitted_by text NOT NULL,
        submitted_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        CHECK ((kind = 'file') = (content_json IS NULL))
      );
      CREATE INDEX evidence_items_run_idx ON evidence_items (run_id, submitted_at);
      CREATE UNIQUE INDEX evidence_items_supersedes_idx ON evidence_items (supersedes) WHERE supersedes IS NOT NULL;

    CREATE OR REPLACE FUNCTION refuse_change_evidence_items() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'evidence_items is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$;
    CREATE TRIGGER evidence_items_no_update_delete BEFORE UPDATE OR DELETE ON evidence_items
      FOR EACH ROW EXECUTE FUNCTION refuse_change_evidence_items();
    CREATE TRIGGER evidence_items_no_truncate BEFORE TRUNCATE ON evidence_items
      FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_evidence_items();`,
};
