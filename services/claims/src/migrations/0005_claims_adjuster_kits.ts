import type { Migration } from '@platform/db';

/** Adjuster kits: immutable snapshots, kept as the exact canonical JSON (RFC 8785) their SHA-256 covers. */
export const adjusterKitsMigration: Migration = {
  name: '0005_claims_adjuster_kits',
  sql: `
      CREATE TABLE adjuster_kits (
        id uuid PRIMARY KEY,
        claim_id uuid NOT NULL REFERENCES claims (id),
        generated_at timestamptz NOT NULL,
        generated_by text NOT NULL,
        snapshot text NOT NULL, -- the RFC 8785 canonical JSON the hash was computed over
        sha256 text NOT NULL
      );
      CREATE INDEX adjuster_kits_claim_idx ON adjuster_kits (claim_id, generated_at DESC);

    CREATE OR REPLACE FUNCTION refuse_change_adjuster_kits() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'adjuster_kits is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$;
    CREATE TRIGGER adjuster_kits_no_update_delete BEFORE UPDATE OR DELETE ON adjuster_kits
      FOR EACH ROW EXECUTE FUNCTION refuse_change_adjuster_kits();
    CREATE TRIGGER adjuster_kits_no_truncate BEFORE TRUNCATE ON adjuster_kits
      FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_adjuster_kits();
    `,
};
