import type { Knex } from '@platform/db';

export function assignmentStore(db: Knex) {
  return {
    /** Sets the assignee; answers the claim's new version (the trigger bumps it). */
    async setAssignee(claimId: string, assignee: string | null): Promise<number> {
      const [row] = (await db('claims')
        .where({ id: claimId })
        .update({ assignee, updated_at: db.raw('clock_timestamp()') })
        .returning('version')) as { version: number }[];
      return row.version;
    },
  };
}
