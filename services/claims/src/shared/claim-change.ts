import type { Knex, PendingWrite } from '@platform/db';
import { createEvent, enqueueEvent, type EventKind } from '@platform/messaging';
import { claimStore } from './claim-store';

/** The CloudEvents `source` of claim events. */
export const CLAIMS_EVENT_SOURCE = '/claims';

/** What every claim event's data carries (recordClaimChange adds them): the claim and who changed it. */
export const claimEventProperties = {
  claim_id: { type: 'string', format: 'uuid' },
  actor: { type: 'string', minLength: 1, description: 'Who made the change: a user (sub), `claimant`, or a `system:…` process' },
} as const;

/** An event's data less what recordClaimChange adds itself. */
type ClaimFacts<Data> = Omit<Data, 'claim_id' | 'actor'>;

export interface ClaimChange<Data> {
  claimId: string;
  /** The kind of event (its type is also the audit action: `claim.triaged`, …). */
  event: EventKind<Data>;
  actor: string;
  /** Why, for the internal timeline; omitted where the change speaks for itself (an upload). */
  reason?: string;
  /** Identifiers and facts only, never claimant personal data: it is the event's data. */
  data: NoInfer<ClaimFacts<Data>>;
  /** The timeline entry's action and data where they differ from the event's type and data. */
  timeline?: { action?: string; data?: Record<string, unknown> };
}

/**
 * Writes the claim's timeline entry and its event (to the outbox) on the caller's transaction, in one
 * statement with `alongside` (the change's own writes, if given): the change, its audit entry and its
 * event commit together or not at all.
 */
export async function recordClaimChange<Data>(
  db: Knex,
  exchange: string,
  change: ClaimChange<Data>,
  alongside: PendingWrite[] = [],
): Promise<string> {
  const event = createEvent({
    source: CLAIMS_EVENT_SOURCE,
    type: change.event.type,
    subject: change.claimId,
    dataschema: change.event.schema.$id,
    data: { claim_id: change.claimId, actor: change.actor, ...change.data },
  });
  const audit = claimStore(db).appendAudit({
    claim_id: change.claimId,
    action: change.timeline?.action ?? change.event.type,
    actor: change.actor,
    reason: change.reason,
    data: { ...(change.timeline?.data ?? change.data), event_id: event.id },
  });
  await enqueueEvent(db, exchange, event, [...alongside, audit]);
  return event.id;
}
