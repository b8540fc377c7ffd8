import type { Migration } from '@platform/db';

/**
 * One row per broken promise: a claim whose `next_update_due` passed is announced once for that due
 * moment. A newer update sets a new `next_update_due`, which can be announced again when it passes.
 */
export const overdueMigration: Migration = {
  name: '0004_claims_overdue_announcements',
  sql: `
      CREATE TABLE overdue_announcements (
        claim_id uuid NOT NULL REFERENCES claims (id),
        due_at timestamptz NOT NULL,
        event_id uuid NOT NULL,
        announced_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (claim_id, due_at)
      );
    `,
};
