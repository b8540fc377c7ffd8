import { Counter, Histogram } from 'prom-client';
import type { Knex } from '@platform/db';
import { PoisonMessageError, applyOnceTogether, queueDepthGauge, type CloudEvent, type Subscription } from '@platform/messaging';
import type { ServiceDeps } from '@platform/runtime';
import type { EvidenceConfig } from '../../config';
import { appendAuditRecord, type AuditRecordInput } from '../../shared/audit-append';

/** The inbox name under which consumed claim events are de-duplicated. */
const CLAIM_EVENTS_CONSUMER = 'evidence.claim-events';

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/**
 * The one audit record a claim event becomes. An event that can never become one (no claim_id, a
 * time that is not a timestamp) is poison: it is dead-lettered at once, not retried.
 */
function claimEventAuditRecord(event: CloudEvent): AuditRecordInput {
  const { claim_id: claimId, actor } = event.data as { claim_id?: unknown; actor?: unknown };
  if (!nonEmptyString(claimId)) throw new PoisonMessageError(`${event.type} event ${event.id} has no data.claim_id`);
  if (Number.isNaN(Date.parse(event.time))) throw new PoisonMessageError(`${event.type} event ${event.id} has an invalid time`);
  return {
    source: 'claims',
    action: event.type,
    entity_type: 'claim',
    entity_id: claimId,
    actor: nonEmptyString(actor) ? actor : event.source,
    event_id: event.id,
    occurred_at: event.time,
    data: event.data,
  };
}

/**
 * Each claim event, once per event id, becomes one audit record committed with its inbox row. The
 * messages in flight are committed together (applyOnceTogether): one transaction per message made every
 * append wait on the chain's lock for the commit, WAL flush included, of the one before it.
 */
function claimEventHandler(db: Knex) {
  return applyOnceTogether(db, CLAIM_EVENTS_CONSUMER, async (event, trx) => {
    await appendAuditRecord(trx, claimEventAuditRecord(event));
  });
}

/** Consumes `claim.#` from the durable claim-events queue (dead letters to `<queue>.dlq`). */
export async function startClaimEventConsumer(deps: ServiceDeps, config: EvidenceConfig): Promise<Subscription> {
  const counter = (name: string, help: string) => new Counter({ name, help, registers: [deps.metrics] });
  const consumed = counter('evidence_claim_events_consumed_total', 'Claim events recorded in the audit log');
  const duplicates = counter('evidence_claim_events_duplicates_total', 'Redelivered claim events that were already recorded');
  const deadLettered = counter('evidence_claim_events_dead_lettered_total', 'Claim events moved to the dead-letter queue');
  const lag = new Histogram({
    name: 'evidence_claim_events_lag_seconds',
    help: 'From a claim event (its time) to its audit record committed: outbox, broker and queue waits together',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
    registers: [deps.metrics],
  });
  queueDepthGauge(deps.metrics, deps.transport, config.CLAIM_EVENTS_QUEUE);
  const handle = claimEventHandler(deps.db);
  return deps.transport.consume({
    exchange: config.CLAIMS_EXCHANGE,
    queue: config.CLAIM_EVENTS_QUEUE,
    bindings: ['claim.#'],
    prefetch: config.CONSUMER_PREFETCH,
    maxAttempts: config.CONSUMER_MAX_ATTEMPTS,
    onMessage: async (event) => {
      if (await handle(event)) {
        consumed.inc();
        lag.observe(Math.max(0, Date.now() - Date.parse(event.time)) / 1000);
      } else duplicates.inc();
    },
    onDeadLetter: (reason) => {
      deadLettered.inc();
      deps.logger.error({ reason, queue: `${config.CLAIM_EVENTS_QUEUE}.dlq` }, 'claim event dead-lettered');
    },
  });
}
