import type { Migration } from '@platform/db';

/**
 * Internal notes on a claim. Never edited or deleted (a trigger refuses both): a correction is a new note
 * naming the note it corrects (`corrects`, a note of the same claim).
 */
export const notesMigration: Migration = {
  name: '0020_claims_notes',
  sql: `
      CREATE TABLE claim_notes (
        id uuid PRIMARY KEY,
        claim_id uuid NOT NULL REFERENCES claims (id),
        body text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 10000),
        topic text,
        corrects uuid REFERENCES claim_notes (id),
        author text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX claim_notes_claim_idx ON claim_notes (claim_id, created_at DESC, id DESC);

      CREATE OR REPLACE FUNCTION claim_notes_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'claim_notes is append-only';
      END $$;
      CREATE TRIGGER claim_notes_no_update BEFORE UPDATE OR DELETE ON claim_notes
        FOR EACH ROW EXECUTE FUNCTION claim_notes_append_only();
    `,
};
