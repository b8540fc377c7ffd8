import type { Migration } from '@platform/db';

/**
 * Drops 0011's prefix index on the claimant's email and suffix index on their phone digits: the claims list
 * finds a claimant by the blind index of the whole email or phone since 0024, so nothing reads them. With
 * encryption on they indexed ciphertext (longer keys, written by every intake, for nothing); with it off they
 * were one more plain copy of the contact.
 */
export const dropContactIndexesMigration: Migration = {
  name: '0028_claims_drop_contact_indexes',
  sql: `
      DROP INDEX claims_claimant_email_prefix_idx;
      DROP INDEX claims_claimant_phone_suffix_idx;
    `,
};
