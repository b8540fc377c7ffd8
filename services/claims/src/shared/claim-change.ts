import type { Knex } from '@platform/db';
import { createEvent, enqueueEvent } from '@platform/messaging';
import { appendClaimAudit } from './claim-store';

/** The CloudEvents `source` of claim events. */
export const CLAIMS_EVENT_SOURCE = '/claims';

export interface ClaimChange {
  claimId: string;
  /** The event type, also the audit action (`claim.triaged`, …). */
  type: string;
  actor: string;
  /** Why, for the internal timeline; omitted where the change speaks for itself (an upload). */
  reason?: string;
  /** Identifiers and facts only, never claimant personal data: it is the event's data. */
  data: Record<string, unknown>;
  /** The timeline entry's action and data where they differ from the event's type and data. */
  timeline?: { action?: string; data?: Record<string, unknown> };
}

/**
 * Writes the claim's timeline entry and its event (to the outbox) on the caller's transaction: the
 * change, its audit entry and its event commit together or not at all.
 */
export async function recordClaimChange(db: Knex, exchange: string, change: ClaimChange): Promise<string> {
  const event = createEvent({
    source: CLAIMS_EVENT_SOURCE,
    type: change.type,
    subject: change.claimId,
    data: { claim_id: change.claimId, actor: change.actor, ...change.data },
  });
  await appendClaimAudit(db, {
    claim_id: change.claimId,
    action: change.timeline?.action ?? change.type,
    actor: change.actor,
    reason: change.reason,
    data: { ...(change.timeline?.data ?? change.data), event_id: event.id },
  });
  await enqueueEvent(db, exchange, event);
  return event.id;
}
