import type { Knex } from '@platform/db';
import type { Logger } from 'pino';
import { recordClaimChange } from '../../shared/claim-change';
import { claimUpdateOverdue } from './overdue-events';
import { overdueStore } from './overdue-store';

export const OVERDUE_SWEEP_ACTOR = 'system:overdue-sweep';
const BATCH = 100;

/**
 * Announces, once each, the claims whose promised next update (`next_update_due`, set by the latest
 * status update) has passed while they are not closed. The announcement row (claim, due moment) and
 * the event commit together; the primary key makes a second sweep, or a concurrent one, announce
 * nothing. A newer update sets a new due moment, which is announced again if it too passes.
 */
export async function sweepOverdue(db: Knex, exchange: string): Promise<number> {
  let announced = 0;
  for (;;) {
    const batch = await db.transaction(async (trx) => {
      const store = overdueStore(trx);
      const due = await store.lockUnannouncedOverdue(BATCH);
      let count = 0;
      for (const claim of due) {
        const dueAt = new Date(claim.next_update_due);
        const eventId = await recordClaimChange(trx, exchange, {
          claimId: claim.id,
          event: claimUpdateOverdue,
          actor: OVERDUE_SWEEP_ACTOR,
          reason: `The update promised before ${dueAt.toISOString()} was not sent`,
          data: { next_update_due: dueAt.toISOString(), stage: claim.stage },
        });
        await store.recordAnnouncement({ claim_id: claim.id, due_at: dueAt, event_id: eventId });
        count += 1;
      }
      return count;
    });
    announced += batch;
    if (batch < BATCH) return announced;
  }
}

/** Runs the sweep every `intervalMs` (OVERDUE_SWEEP_INTERVAL_MS); stop() waits for a running sweep. */
export function startOverdueSweeper(db: Knex, exchange: string, intervalMs: number, logger: Logger): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  let stopped = false;
  const run = () => {
    if (running || stopped) return;
    running = sweepOverdue(db, exchange)
      .then((count) => {
        if (count > 0) logger.info({ count }, 'overdue status promises announced');
      })
      .catch((error) => logger.warn({ err: error }, 'overdue sweep failed; retrying at the next interval'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
