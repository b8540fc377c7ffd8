import type { Migration } from '@platform/db';

/**
 * One live claimant per contact: two concurrent intakes of the same new claimant each found nobody and made a
 * claimant of their own. The email's blind index is unique among live claimants, and so is the phone's among
 * live claimants without an email (a claimant found by email may be given a phone another claimant also gave:
 * the email decides who they are). Intake inserts ON CONFLICT DO NOTHING and takes the claimant that won.
 *
 * Claimants made twice before this migration: the oldest keeps the contact that finds a returning claimant; the
 * others keep their claims and their data key (what was sealed with it stays theirs), no longer matched by it.
 */
export const claimantUniqueContactsMigration: Migration = {
  name: '0029_claims_claimant_unique_contacts',
  sql: `
      UPDATE claimants c SET email_index = NULL
       WHERE c.erased_at IS NULL AND c.email_index IS NOT NULL
         AND EXISTS (SELECT 1 FROM claimants o
                      WHERE o.erased_at IS NULL AND o.email_index = c.email_index AND (o.created_at, o.id) < (c.created_at, c.id));
      UPDATE claimants c SET phone_index = NULL
       WHERE c.erased_at IS NULL AND c.email_index IS NULL AND c.phone_index IS NOT NULL
         AND EXISTS (SELECT 1 FROM claimants o
                      WHERE o.erased_at IS NULL AND o.email_index IS NULL AND o.phone_index = c.phone_index
                        AND (o.created_at, o.id) < (c.created_at, c.id));
      DROP INDEX claimants_email_index_idx;
      CREATE UNIQUE INDEX claimants_email_index_key ON claimants (email_index) WHERE erased_at IS NULL;
      CREATE UNIQUE INDEX claimants_phone_only_index_key ON claimants (phone_index) WHERE erased_at IS NULL AND email_index IS NULL;
    `,
};
