import { appendOnlySql, type Migration } from '@platform/db';

/** Adjuster kits: immutable snapshots, kept as the exact canonical JSON (RFC 8785) their SHA-256 covers. */
export const adjusterKitsMigration: Migration = {
  name: '0005_claims_adjuster_kits',
  async up(db) {
    await db.raw(`
      CREATE TABLE adjuster_kits (
        id uuid PRIMARY KEY,
        claim_id uuid NOT NULL REFERENCES claims (id),
        generated_at timestamptz NOT NULL,
        generated_by text NOT NULL,
        snapshot text NOT NULL, -- the RFC 8785 canonical JSON the hash was computed over
        sha256 text NOT NULL
      );
      CREATE INDEX adjuster_kits_claim_idx ON adjuster_kits (claim_id, generated_at DESC);
      ${appendOnlySql('adjuster_kits')}
    `);
  },
};
