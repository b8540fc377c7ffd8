import type { Migration } from '@platform/db';

/**
 * The delivery queue of status updates, one row per update and channel. `portal` updates are
 * `delivered` on insert (the status endpoint serves them); `email` and `sms` start `pending` and the
 * delivery worker moves them to `sent` (handed to SMTP or the SMS webhook), `logged` (nothing
 * configured: written to the log) or, after repeated failures, `failed`.
 */
export const deliveriesMigration: Migration = {
  name: '0003_claims_deliveries',
  sql: `
      CREATE TABLE deliveries (
        id uuid PRIMARY KEY,
        update_id uuid NOT NULL REFERENCES status_updates (update_id),
        claim_id uuid NOT NULL REFERENCES claims (id),
        channel text NOT NULL CHECK (channel IN ('email', 'sms', 'portal')),
        status text NOT NULL CHECK (status IN ('pending', 'sent', 'logged', 'failed', 'delivered')),
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        next_attempt_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        completed_at timestamptz,
        UNIQUE (update_id, channel)
      );
      CREATE INDEX deliveries_pending_idx ON deliveries (next_attempt_at) WHERE status = 'pending';
    `,
};
