import type { Migration } from '@platform/db';

/**
 * The diary: activities on a claim, due on a day, assigned to a person (a JWT `sub`). `kind` is `manual`
 * for one a person created; the platform's own kinds are for activities it creates itself.
 */
export const diaryMigration: Migration = {
  name: '0021_claims_activities',
  sql: `
      CREATE TABLE claim_activities (
        id uuid PRIMARY KEY,
        claim_id uuid NOT NULL REFERENCES claims (id),
        kind text NOT NULL DEFAULT 'manual' CHECK (kind IN ('manual', 'first_contact_due', 'promised_update_due', 'documents_requested')),
        subject text NOT NULL,
        due_on date NOT NULL,
        priority text NOT NULL CHECK (priority IN ('low', 'normal', 'high', 'urgent')),
        assignee text NOT NULL,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        completed_by text,
        completed_at timestamptz,
        overdue_announced_at timestamptz
      );
      CREATE INDEX claim_activities_open_idx ON claim_activities (assignee, due_on, id) WHERE completed_at IS NULL;
      CREATE INDEX claim_activities_claim_idx ON claim_activities (claim_id, created_at DESC);
    `,
};
