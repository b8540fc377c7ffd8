import type { Knex } from '@platform/db';
import { startPeriodicTask, type PeriodicTask } from '@platform/http';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { recordClaimChange } from '../../shared/claim-change';
import { DEADLINES, type Deadline } from '../../shared/claim-deadlines';
import { claimSlaBreached, claimUpdateOverdue } from './deadlines-events';
import { deadlinesStore } from './deadlines-store';

export const DEADLINE_SWEEP_ACTOR = 'system:deadline-sweep';
const BATCH = 100;

const WHAT_WAS_DUE: Record<Deadline, string> = {
  acknowledgement: 'The acknowledgement did not reach the claimant',
  first_contact: 'No adjuster contacted the claimant',
  next_update: 'The promised update was not sent',
};

/**
 * Announces, once each, every deadline an open claim passed unmet (`claim.sla_breached`, naming the
 * deadline; a `next_update` breach also as `claim.update_overdue`, the contract's event). The breach row
 * (claim, deadline, due moment) and the event commit together; the primary key makes a second sweep announce
 * nothing, and an advisory lock makes concurrent ones (replicas) take turns. A new due moment (a newer
 * promise) is announced again if it too passes.
 */
export async function sweepDeadlines(db: Knex, exchange: string, stopping: () => boolean = () => false): Promise<number> {
  let announced = 0;
  for (const deadline of DEADLINES) {
    // Each batch commits on its own, so a sweep stopped between two batches leaves the rest to the next one.
    while (!stopping()) {
      const batch = await db.transaction(async (trx) => {
        const store = deadlinesStore(trx);
        await store.lockSweep();
        const breached = await store.lockUnannouncedBreaches(deadline, BATCH);
        for (const claim of breached) {
          const dueAt = new Date(claim.due_at);
          const eventId = await recordClaimChange(trx, exchange, {
            claimId: claim.id,
            event: claimSlaBreached,
            actor: DEADLINE_SWEEP_ACTOR,
            reason: `${WHAT_WAS_DUE[deadline]} by ${dueAt.toISOString()}`,
            data: { deadline, due_at: dueAt.toISOString(), stage: claim.stage },
          });
          if (deadline === 'next_update') {
            // the contract's own event for a broken promise, kept beside the general one
            await recordClaimChange(trx, exchange, {
              claimId: claim.id,
              event: claimUpdateOverdue,
              actor: DEADLINE_SWEEP_ACTOR,
              reason: `The update promised before ${dueAt.toISOString()} was not sent`,
              data: { next_update_due: dueAt.toISOString(), stage: claim.stage },
            });
          }
          await store.recordBreach({ claim_id: claim.id, deadline, event_id: eventId });
        }
        return breached.length;
      });
      announced += batch;
      if (batch < BATCH) break;
    }
  }
  return announced;
}

/**
 * Runs the sweep every `intervalMs` (OVERDUE_SWEEP_INTERVAL_MS) on the periodic-task runner (task
 * `deadline-sweep`); stop() waits for the batch in flight, not for the whole sweep (a backlog of thousands of
 * breaches would hold a shutdown past its deadline).
 */
export function startDeadlineSweeper(db: Knex, exchange: string, intervalMs: number, logger: Logger, metrics?: Registry): PeriodicTask {
  let stopping = false;
  const task = startPeriodicTask({
    name: 'deadline-sweep',
    work: () => sweepDeadlines(db, exchange, () => stopping),
    intervalMs,
    runAtStart: false,
    logger,
    metrics,
  });
  return {
    ...task,
    async stop() {
      stopping = true;
      await task.stop();
    },
  };
}
