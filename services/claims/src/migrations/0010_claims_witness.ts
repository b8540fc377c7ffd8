import type { Migration } from '@platform/db';

/**
 * The hosted witness's own state (@platform/witness): the checkpoints it cosigned and the refusals it
 * made, with their evidence. A frozen copy of the package's 0001_witness.
 */
export const claimsWitnessMigration: Migration = {
  name: '0010_claims_witness',
  sql: `
      CREATE TABLE witness_checkpoints (
        origin text NOT NULL,
        size bigint NOT NULL CHECK (size >= 1),
        root_hash bytea NOT NULL CHECK (octet_length(root_hash) = 32),
        note text NOT NULL,
        cosignature text NOT NULL,
        cosigned_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (origin, size)
      );
      CREATE TABLE witness_refusals (
        id bigserial PRIMARY KEY,
        origin text NOT NULL,
        reason text NOT NULL CHECK (reason IN ('truncated', 'forked', 'inconsistent')),
        cosigned_note text NOT NULL,
        offered_note text NOT NULL,
        offered_body text NOT NULL,
        proof jsonb,
        refused_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (origin, offered_body)
      );`,
};
