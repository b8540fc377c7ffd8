import type { Migration } from '@platform/db';

/**
 * Claimants, each with a data key that seals their personal fields (wrapped by the key vault; NULL once
 * destroyed by erasure, or for a claimant filed while encryption was off) and the blind indexes (keyed
 * HMAC) of their email and phone that match a returning claimant without storing either. `privacy_keys`
 * holds the service's own wrapped keys (the blind-index key). Every claim names its claimant: each claim
 * filed before this migration gets one of its own, without indexes or key (its fields stay as written).
 */
export const claimantsMigration: Migration = {
  name: '0024_claims_claimants',
  sql: `
      CREATE TABLE claimants (
        id uuid PRIMARY KEY,
        email_index text,
        phone_index text,
        wrapped_key text,
        kek_id text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        erased_at timestamptz
      );
      CREATE INDEX claimants_email_index_idx ON claimants (email_index) WHERE erased_at IS NULL;
      CREATE INDEX claimants_phone_index_idx ON claimants (phone_index) WHERE erased_at IS NULL;

      CREATE TABLE privacy_keys (
        name text PRIMARY KEY,
        wrapped_key text NOT NULL,
        kek_id text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );

      ALTER TABLE claims ADD COLUMN claimant_id uuid;
      UPDATE claims SET claimant_id = gen_random_uuid();
      INSERT INTO claimants (id, created_at) SELECT claimant_id, created_at FROM claims;
      ALTER TABLE claims ALTER COLUMN claimant_id SET NOT NULL;
      ALTER TABLE claims ADD CONSTRAINT claims_claimant_id_fkey FOREIGN KEY (claimant_id) REFERENCES claimants (id);
      CREATE INDEX claims_claimant_id_idx ON claims (claimant_id, received_at);
    `,
};
