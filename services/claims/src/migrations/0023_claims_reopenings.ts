import type { Migration } from '@platform/db';

/**
 * Each reopening of a closed claim, with its reason in its own row: the reason had lived only as the text of
 * the status update that told the claimant, beside every other update's. `reason` is that update's "what
 * happened" (the reason the claimant is told); `closing_reason` is the closing it undid (null for a claim closed before closings kept one).
 */
export const reopeningsMigration: Migration = {
  name: '0023_claims_reopenings',
  sql: `
      CREATE TABLE claim_reopenings (
        update_id uuid PRIMARY KEY REFERENCES status_updates (update_id),
        claim_id uuid NOT NULL REFERENCES claims (id),
        closing_reason text,
        stage text NOT NULL,
        reason text NOT NULL CHECK (char_length(reason) >= 1),
        reopened_by text NOT NULL,
        reopened_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX claim_reopenings_claim_idx ON claim_reopenings (claim_id, reopened_at);
    `,
};
