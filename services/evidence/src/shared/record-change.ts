import type { Knex } from '@platform/db';
import { createEvent, enqueueEvent, type EventKind } from '@platform/messaging';
import { appendAuditRecord } from './audit-append';

/** CloudEvents `source` of the evidence service's events (the audit checkpoints use the same). */
export const EVENT_SOURCE = '/evidence';

export interface EvidenceChange<Data> {
  /** The kind of event; its type is also the audit record's action, e.g. `evidence.run_created`. */
  event: EventKind<Data>;
  entity_type: 'control' | 'run' | 'binder';
  entity_id: string;
  actor: string;
  /** Identifiers and facts only, exactly as the kind's schema says. */
  data: NoInfer<Data>;
}

/**
 * Every change of the evidence workflow becomes exactly one audit record and one outbox event, both on
 * the change's own transaction: they commit with it or not at all.
 */
export async function recordChange<Data extends Record<string, unknown>>(
  trx: Knex,
  exchange: string,
  change: EvidenceChange<Data>,
): Promise<void> {
  const event = createEvent({
    source: EVENT_SOURCE,
    type: change.event.type,
    subject: change.entity_id,
    dataschema: change.event.schema.$id,
    data: change.data,
  });
  await appendAuditRecord(trx, {
    action: change.event.type,
    source: 'evidence',
    entity_type: change.entity_type,
    entity_id: change.entity_id,
    actor: change.actor,
    event_id: event.id,
    data: change.data,
  });
  await enqueueEvent(trx, exchange, event);
}
