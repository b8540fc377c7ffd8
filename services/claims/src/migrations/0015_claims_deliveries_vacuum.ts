import type { Migration } from '@platform/db';

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
