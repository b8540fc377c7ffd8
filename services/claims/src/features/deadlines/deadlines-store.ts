import type { Knex } from '@platform/db';
import { DEADLINE_DUE_COLUMN, DEADLINES, openBreachCondition, type Deadline } from '../../shared/claim-deadlines';
import type { ClaimStage } from '../../shared/claim-vocabulary';

export interface BreachedClaim {
  id: string;
  stage: ClaimStage;
  due_at: Date;
}

export function deadlinesStore(db: Knex) {
  return {
    /**
     * Holds the sweep's advisory lock until the transaction ends. Row locks alone are not enough: a sweep
     * whose query started before another's commit would still see that claim unannounced once it gets the
     * row, and announce it again; taken before the query, the lock makes it see the other's breaches.
     */
    async lockSweep(): Promise<void> {
      await db.raw('SELECT pg_advisory_xact_lock(hashtext(?))', ['claims.deadline-sweep']);
    },

    /**
     * Up to `limit` open claims whose `deadline` passed unmet and is not announced for that due moment
     * yet, locked (skipping those another sweep holds) until the transaction ends.
     */
    async lockUnannouncedBreaches(deadline: Deadline, limit: number): Promise<BreachedClaim[]> {
      const due = DEADLINE_DUE_COLUMN[deadline];
      return db('claims')
        .select('id', 'stage', `${due} AS due_at`)
        .whereRaw(openBreachCondition(deadline))
        .whereNotExists(
          db('deadline_breaches')
            .select(db.raw('1'))
            .whereRaw(
              `deadline_breaches.claim_id = claims.id AND deadline_breaches.deadline = ? AND deadline_breaches.due_at = claims.${due}`,
              [deadline],
            ),
        )
        .orderBy(due)
        .limit(limit)
        .forUpdate()
        .skipLocked();
    },

    /**
     * Records the breach at the claim's due moment as stored — copied in SQL, because a JavaScript Date
     * keeps milliseconds and a due moment with microseconds would never match it again (the next sweep
     * would find it unannounced and stall on the primary key).
     */
    async recordBreach(breach: { claim_id: string; deadline: Deadline; event_id: string }): Promise<void> {
      const due = DEADLINE_DUE_COLUMN[breach.deadline];
      await db.raw(
        `INSERT INTO deadline_breaches (claim_id, deadline, due_at, event_id) SELECT id, ?, ${due}, ? FROM claims WHERE id = ?`,
        [breach.deadline, breach.event_id, breach.claim_id],
      );
    },

    /** How many open claims are past each deadline unmet right now (announced or not): one index range each. */
    async countOpenBreaches(): Promise<Record<Deadline, number>> {
      const counts = DEADLINES.map(
        (deadline) => `(SELECT count(*)::int FROM claims WHERE ${openBreachCondition(deadline)}) AS ${deadline}`,
      );
      const { rows } = await db.raw(`SELECT ${counts.join(', ')}`);
      return rows[0] as Record<Deadline, number>;
    },
  };
}
