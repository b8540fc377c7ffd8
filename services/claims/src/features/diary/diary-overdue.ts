import type { Knex } from '@platform/db';
import { startPeriodicTask, type FromSchema } from '@platform/http';
import { eventKind, eventSchemaId } from '@platform/messaging';
import type { ServiceDeps } from '@platform/runtime';
import { claimEventProperties, recordClaimChange } from '../../shared/claim-change';
import { reconcilePlatformActivities } from './platform-activities';

export const DIARY_SWEEP_ACTOR = 'system:diary-sweep';
const BATCH = 200;

/** `data` of `claim.activity_overdue`: which activity, whose, and the day it was due; never its subject. */
export const claimActivityOverdueData = {
  $id: eventSchemaId('claim.activity_overdue', 1),
  type: 'object',
  additionalProperties: false,
  required: ['claim_id', 'actor', 'activity_id', 'assignee', 'due_on'],
  properties: {
    ...claimEventProperties,
    activity_id: { type: 'string', format: 'uuid' },
    assignee: { type: 'string' },
    due_on: { type: 'string', format: 'date' },
  },
} as const;

export const claimActivityOverdue = eventKind<FromSchema<typeof claimActivityOverdueData>>({
  type: 'claim.activity_overdue',
  summary: 'An open activity passed its due day (announced once per activity)',
  schema: claimActivityOverdueData,
});

/**
 * Announces every open activity due before today (UTC) that has not been announced: the event and the mark
 * commit together, and rows another replica holds are skipped, so each is announced exactly once.
 */
export async function announceOverdueActivities(db: Knex, exchange: string): Promise<number> {
  let announced = 0;
  for (;;) {
    const batch = await db.transaction(async (trx) => {
      const rows: { id: string; claim_id: string; assignee: string; due_on: string }[] = await trx('claim_activities')
        .whereNull('completed_at')
        .whereNull('overdue_announced_at')
        .whereRaw(`due_on < (now() AT TIME ZONE 'UTC')::date`)
        .orderBy('due_on')
        .limit(BATCH)
        .forUpdate()
        .skipLocked()
        .select('id', 'claim_id', 'assignee', trx.raw(`to_char(due_on, 'YYYY-MM-DD') AS due_on`));
      for (const row of rows) {
        await recordClaimChange(trx, exchange, {
          claimId: row.claim_id,
          event: claimActivityOverdue,
          actor: DIARY_SWEEP_ACTOR,
          reason: `An activity due ${row.due_on} is overdue`,
          data: { activity_id: row.id, assignee: row.assignee, due_on: row.due_on },
        });
        await trx('claim_activities')
          .where({ id: row.id })
          .update({ overdue_announced_at: trx.raw('clock_timestamp()') });
      }
      return rows.length;
    });
    announced += batch;
    if (batch < BATCH) return announced;
  }
}

export function startDiarySweeper(deps: ServiceDeps, exchange: string, intervalMs: number) {
  return startPeriodicTask({
    name: 'activity-overdue',
    // the platform's own activities first, so one that fell due is announced in the same pass
    work: async () => (await reconcilePlatformActivities(deps.db, exchange)) + (await announceOverdueActivities(deps.db, exchange)),
    intervalMs,
    logger: deps.logger,
    metrics: deps.metrics,
  });
}
