import type { Knex } from '@platform/db';
import type { ClaimStage } from '../../shared/claim-vocabulary';

export interface OverdueClaim {
  id: string;
  stage: ClaimStage;
  next_update_due: Date;
}

export function overdueStore(db: Knex) {
  return {
    /**
     * Up to `limit` claims, not closed, whose `next_update_due` has passed and is not announced yet, locked
     * (skipping those another sweep holds) until the transaction ends.
     */
    async lockUnannouncedOverdue(limit: number): Promise<OverdueClaim[]> {
      return db('claims')
        .select('id', 'stage', 'next_update_due')
        .whereNot('stage', 'closed')
        .where('next_update_due', '<=', db.raw('clock_timestamp()'))
        .whereNotExists(db('overdue_announcements').select(db.raw('1')).whereRaw('overdue_announcements.claim_id = claims.id AND overdue_announcements.due_at = claims.next_update_due'))
        .orderBy('next_update_due')
        .limit(limit)
        .forUpdate()
        .skipLocked();
    },

    async recordAnnouncement(announcement: { claim_id: string; due_at: Date; event_id: string }): Promise<void> {
      await db('overdue_announcements').insert(announcement);
    },
  };
}
