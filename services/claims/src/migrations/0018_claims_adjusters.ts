import type { Migration } from '@platform/db';

/**
 * The directory of adjusters the assignment picker offers (`GET /api/claims/adjusters`). The identity
 * provider has no listing the service may read, so the service learns the people itself: whoever opens the
 * claims list holding `claims:write` (every adjuster does on signing in) and whoever a claim is assigned to.
 * Seeded with the people claims are assigned to today.
 */
export const adjustersMigration: Migration = {
  name: '0018_claims_adjusters',
  sql: `
      CREATE TABLE adjusters (
        sub text PRIMARY KEY,
        first_seen_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        last_seen_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      INSERT INTO adjusters (sub) SELECT DISTINCT assignee FROM claims WHERE assignee IS NOT NULL;
    `,
};
