import type { Knex } from '@platform/db';

export function withdrawalStore(db: Knex) {
  return {
    /** Closes the claim with reason `withdrawn`; a closed claim promises no further update. */
    async closeAsWithdrawn(claimId: string): Promise<void> {
      await db('claims')
        .where({ id: claimId })
        .update({
          stage: 'closed',
          closing_reason: 'withdrawn',
          closing_rationale: null,
          next_update_due: null,
          updated_at: db.raw('clock_timestamp()'),
        });
    },
  };
}
