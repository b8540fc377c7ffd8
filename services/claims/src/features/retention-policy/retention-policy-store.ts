import type { Knex } from '@platform/db';
import type { RetentionDays, RetentionPolicy } from './retention-policy-schemas';

interface RetentionPolicyRow {
  version: number;
  paid_days: number;
  denied_days: number;
  withdrawn_days: number;
  duplicate_days: number;
  reason: string;
  published_by: string;
  published_at: Date;
}

const policyOf = (row: RetentionPolicyRow): RetentionPolicy => ({
  version: row.version,
  retention_days: { paid: row.paid_days, denied: row.denied_days, withdrawn: row.withdrawn_days, duplicate: row.duplicate_days },
  reason: row.reason,
  published_by: row.published_by,
  published_at: new Date(row.published_at).toISOString(),
});

/** The versions of the retention policy; the highest is in force. Rows are never changed (the database refuses it). */
export function retentionPolicyStore(db: Knex) {
  return {
    /** The version in force (the migration publishes version 1, so there always is one). */
    async current(): Promise<RetentionPolicy> {
      const row: RetentionPolicyRow = await db('retention_policies').orderBy('version', 'desc').first();
      return policyOf(row);
    },

    async versions(): Promise<RetentionPolicy[]> {
      const rows: RetentionPolicyRow[] = await db('retention_policies').orderBy('version', 'desc');
      return rows.map(policyOf);
    },

    /**
     * Publishes `version`, which must be the next one: a concurrent publication of the same number loses on
     * the primary key and returns false.
     */
    async publish(version: number, days: RetentionDays, reason: string, publishedBy: string): Promise<RetentionPolicy | undefined> {
      const rows: RetentionPolicyRow[] = await db('retention_policies')
        .insert({
          version,
          paid_days: days.paid,
          denied_days: days.denied,
          withdrawn_days: days.withdrawn,
          duplicate_days: days.duplicate,
          reason,
          published_by: publishedBy,
        })
        .onConflict('version')
        .ignore()
        .returning('*');
      return rows[0] && policyOf(rows[0]);
    },
  };
}
