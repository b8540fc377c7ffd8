import { EventEmitter } from 'node:events';
import type { Knex } from 'knex';
import { writeTogether, type Migration, type PendingWrite } from '@platform/db';
import type { CloudEvent } from './cloud-event';

export const OUTBOX_NOTIFY_CHANNEL = 'outbox_pending';

/** Same-process wake-up for the relay once a transaction that wrote to the outbox has committed. */
export const outboxSignals = new EventEmitter();
outboxSignals.setMaxListeners(50);

export const messagingMigrations: Migration[] = [
  {
    name: '0000_messaging_outbox_inbox',
    sql: `
        CREATE TABLE outbox (
          id uuid PRIMARY KEY,
          exchange text NOT NULL,
          routing_key text NOT NULL,
          payload jsonb NOT NULL,
          created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
          attempts integer NOT NULL DEFAULT 0,
          next_attempt_at timestamptz NOT NULL DEFAULT clock_timestamp(),
          last_error text,
          published_at timestamptz
        );
        CREATE INDEX outbox_pending_idx ON outbox (next_attempt_at, created_at) WHERE published_at IS NULL;
        CREATE TABLE inbox (
          consumer text NOT NULL,
          event_id text NOT NULL,
          event_type text NOT NULL,
          received_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (consumer, event_id)
        );`,
  },
  {
    // The outbox is a queue kept for a week: every event is inserted pending and updated once published,
    // leaving a dead entry in outbox_pending_idx that each relay batch walks until VACUUM removes it. At
    // the default threshold (20% of the table) the dead entries grew with the week's volume, and so did
    // every batch's cost; vacuumed after each 1,000 dead rows, they stay bounded by the event rate.
    name: '0001_messaging_outbox_vacuum',
    sql: `ALTER TABLE outbox SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000);`,
  },
];

/**
 * Writes the event to the outbox on the caller's transaction: it is published if and only if the change
 * that produced it commits. `alongside`, the change's own writes, go in the same statement (one round
 * trip). The relay is woken once the transaction has committed.
 */
export async function enqueueEvent(db: Knex, exchange: string, event: CloudEvent, alongside: PendingWrite[] = []): Promise<void> {
  const outboxRow = db('outbox').insert({ id: event.id, exchange, routing_key: event.type, payload: JSON.stringify(event) });
  // pg_notify wakes relays in other processes at commit
  await writeTogether(db, [...alongside, outboxRow], 'SELECT pg_notify(?, ?)', [OUTBOX_NOTIFY_CHANNEL, exchange]);
  const committed = (db as Knex.Transaction).executionPromise;
  if (db.isTransaction && committed)
    committed.then(
      () => outboxSignals.emit('committed'),
      () => undefined,
    );
  else outboxSignals.emit('committed');
}

/**
 * Records an incoming event as seen, in the effect's own transaction. Returns false when this consumer
 * has seen it before (a redelivery): the caller then applies nothing.
 */
export async function recordInbox(trx: Knex, consumer: string, event: CloudEvent): Promise<boolean> {
  const inserted = await trx('inbox')
    .insert({ consumer, event_id: event.id, event_type: event.type })
    .onConflict(['consumer', 'event_id'])
    .ignore()
    .returning('event_id');
  return inserted.length > 0;
}

/** Applies `effect` at most once per event id: inbox row and effect commit together or not at all. */
export function applyOnce(db: Knex, consumer: string, effect: (event: CloudEvent, trx: Knex.Transaction) => Promise<void>) {
  return (event: CloudEvent): Promise<boolean> =>
    db.transaction(async (trx) => {
      if (!(await recordInbox(trx, consumer, event))) return false;
      await effect(event, trx);
      return true;
    });
}

/**
 * applyOnce with group commit: the events that arrive while a transaction is committing wait and then
 * share the next one (in arrival order, each with its own inbox row), so a consumer with many messages
 * in flight pays one commit — one WAL flush, one wait for a lock its effect takes — per group instead of
 * per event. Each caller still learns its own outcome, and only after the commit. When a group's
 * transaction fails, each of its events is applied again in a transaction of its own, so a failing or
 * poison event fails alone and the rest commit.
 */
export function applyOnceTogether(db: Knex, consumer: string, effect: (event: CloudEvent, trx: Knex.Transaction) => Promise<void>) {
  const alone = applyOnce(db, consumer, effect);
  let waiting: { event: CloudEvent; resolve: (applied: boolean) => void; reject: (error: unknown) => void }[] = [];
  let committing = false;
  const applyGroup = (events: CloudEvent[]) =>
    db.transaction(async (trx) => {
      const applied: boolean[] = [];
      for (const event of events) {
        const fresh = await recordInbox(trx, consumer, event);
        if (fresh) await effect(event, trx);
        applied.push(fresh);
      }
      return applied;
    });
  const commitWaiting = async () => {
    committing = true;
    while (waiting.length > 0) {
      const group = waiting;
      waiting = [];
      const applied = group.length === 1 ? undefined : await applyGroup(group.map((item) => item.event)).catch(() => undefined);
      if (applied) group.forEach((item, i) => item.resolve(applied[i]));
      else for (const item of group) await alone(item.event).then(item.resolve, item.reject);
    }
    committing = false;
  };
  return (event: CloudEvent): Promise<boolean> =>
    new Promise((resolve, reject) => {
      waiting.push({ event, resolve, reject });
      if (!committing) void commitWaiting();
    });
}
