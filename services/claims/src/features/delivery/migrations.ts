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

/**
 * The delivery queue vacuumed after each 1,000 dead rows instead of at 20% of the table. Every delivery
 * is leased (a new row version) and then marked sent, leaving dead entries in deliveries_pending_idx that
 * each lease walks until VACUUM removes them; at the default threshold they grew with the whole history
 * of deliveries (63,000 dead rows after a benchmark), and so did the cost of every lease.
 */
export const deliveriesVacuumMigration: Migration = {
  name: '0015_claims_deliveries_vacuum',
  sql: `ALTER TABLE deliveries SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000);`,
};
