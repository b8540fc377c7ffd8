import type { Knex } from '@platform/db';
import { recordClaimChange } from '../../shared/claim-change';
import { claimActivityChanged } from './diary-events';

export const DIARY_ACTOR = 'system:diary';

const utcDay = (column: string) => `(${column} AT TIME ZONE 'UTC')::date`;
const missingDocuments = `EXISTS (SELECT 1 FROM jsonb_array_elements(c.required_documents) d WHERE d->>'received' = 'false')`;

/**
 * The activities the platform keeps in the assignee's diary, each from the claim's own state, so the diary
 * and the deadlines never disagree: what is open (condition) and the day it is due.
 */
const PLATFORM_KINDS = [
  {
    kind: 'first_contact_due',
    subject: 'First contact due',
    open: 'c.first_contact_made_at IS NULL',
    due: utcDay('c.first_contact_due'),
  },
  {
    kind: 'promised_update_due',
    subject: 'Promised update due',
    open: 'c.next_update_due IS NOT NULL',
    due: utcDay('c.next_update_due'),
  },
  {
    kind: 'documents_requested',
    subject: 'Documents requested: check what the claimant sent',
    open: missingDocuments,
    due: utcDay('c.first_contact_due'),
  },
] as const;

interface Changed {
  id: string;
  claim_id: string;
  assignee: string;
  due_on: string;
}

/**
 * One pass: completes each platform activity whose claim no longer calls for it (contact made, the promised
 * update sent — a new promise is a new activity — every document received, or the claim closed), then opens
 * the ones an assigned, open claim calls for and lacks; each change on the timeline and the bus. Over every
 * claim, or over `claimId` only (a change that fulfils an activity completes it at once).
 */
export async function reconcilePlatformActivities(db: Knex, exchange: string, claimId?: string): Promise<number> {
  return db.transaction(async (trx) => {
    let changes = 0;
    const publish = async (rows: Changed[], change: 'created' | 'completed') => {
      for (const row of rows) {
        await recordClaimChange(trx, exchange, {
          claimId: row.claim_id,
          event: claimActivityChanged,
          actor: DIARY_ACTOR,
          data: { activity_id: row.id, change, assignee: row.assignee, due_on: row.due_on },
        });
      }
      changes += rows.length;
    };
    const returning = `a.id, a.claim_id, a.assignee, to_char(a.due_on, 'YYYY-MM-DD') AS due_on`;
    const ofClaim = claimId === undefined ? '' : 'AND c.id = ?';
    const claimBinding = claimId === undefined ? [] : [claimId];
    for (const { kind, subject, open, due } of PLATFORM_KINDS) {
      const done = await trx.raw(
        `UPDATE claim_activities a SET completed_by = ?, completed_at = clock_timestamp()
           FROM claims c
          WHERE a.claim_id = c.id AND a.kind = ? AND a.completed_at IS NULL
            AND (c.stage = 'closed' OR NOT (${open}) OR a.due_on <> ${due}) ${ofClaim}
          RETURNING ${returning}`,
        [DIARY_ACTOR, kind, ...claimBinding],
      );
      await publish(done.rows, 'completed');
      const created = await trx.raw(
        `INSERT INTO claim_activities AS a (id, claim_id, kind, subject, due_on, priority, assignee, created_by)
         SELECT gen_random_uuid(), c.id, ?, ?, ${due}, 'high', c.assignee, ?
           FROM claims c
          WHERE c.assignee IS NOT NULL AND c.stage <> 'closed' AND ${open}
            AND NOT EXISTS (SELECT 1 FROM claim_activities o WHERE o.claim_id = c.id AND o.kind = ? AND o.completed_at IS NULL) ${ofClaim}
         RETURNING ${returning}`,
        [kind, subject, DIARY_ACTOR, kind, ...claimBinding],
      );
      await publish(created.rows, 'created');
    }
    return changes;
  });
}
