import type { Knex } from 'knex';
import { Client } from 'pg';
import type { Logger } from 'pino';
import { Counter, Gauge, type Registry } from 'prom-client';
import { retryDelayMs, startPeriodicTask, type PeriodicTask } from '@platform/http';
import type { CloudEvent } from './cloud-event';
import { OUTBOX_NOTIFY_CHANNEL, outboxSignals } from './outbox';
import { publishInTrace } from './tracing';
import type { EventTransport } from './transport';

export interface RelayOptions {
  db: Knex;
  transport: EventTransport;
  logger: Logger;
  metrics?: Registry;
  /** PostgreSQL URL to LISTEN on; without it (embedded mode) same-process signals and polling suffice. */
  listenUrl?: string;
  batchSize?: number;
  pollIntervalMs?: number;
  /** How long published rows are kept before they are removed. */
  retentionHours?: number;
  /** Test hook: runs after the batch is published and before it is marked sent. */
  beforeMarkSent?: () => Promise<void>;
}

interface OutboxRow {
  id: string;
  exchange: string;
  routing_key: string;
  payload: CloudEvent | string;
  attempts: number;
}

/**
 * The next batch of outbox rows due for publishing, oldest due first, locked (rows another relay holds are
 * skipped). The bound and the order are the ones the pending index serves: PostgreSQL walks it from the
 * first due entry and stops at the first row not yet due, marking the entries of published rows dead as it
 * passes them. A filter on the volatile clock_timestamp() instead made it read every entry of the index,
 * and the heap page of every published row not yet vacuumed, on each batch. now() is the start of the
 * caller's transaction, a moment ago.
 */
export function dueBatch(trx: Knex, limit: number): Knex.QueryBuilder {
  return trx('outbox')
    .select('id', 'exchange', 'routing_key', 'payload', 'attempts')
    .whereNull('published_at')
    .where('next_attempt_at', '<=', trx.raw('now()'))
    .orderBy(['next_attempt_at', 'created_at'])
    .limit(limit)
    .forUpdate()
    .skipLocked();
}

/**
 * Holds the caller's transaction to that walk of the pending index, whatever PostgreSQL knows of the table.
 * Without statistics on the outbox (never analysed: a server with autovacuum off, as on the CI machine, or a
 * table between two analyses) the planner expected a few rows and chose a bitmap scan and a sort: that plan
 * reads the heap page of every published row not yet vacuumed on every batch and never marks an entry dead
 * (300–560 heap pages per intake on a slow host; docs/BENCHMARKS.md). Local to the transaction.
 */
export async function holdDueBatchToIndexOrder(trx: Knex): Promise<void> {
  await trx.raw(`SELECT set_config('enable_bitmapscan', 'off', true), set_config('enable_sort', 'off', true)`);
}

/**
 * Moves committed outbox rows to the broker. Rows are claimed with FOR UPDATE SKIP LOCKED, so any number
 * of relays can run; each row is marked sent only after the broker confirmed it, and a failure backs
 * off that row. A crash between confirm and mark re-sends the row: consumers de-duplicate by event id.
 * Its passes run on the periodic-task runner (task `outbox-relay`): one drains the outbox batch by batch,
 * a commit in this process or a NOTIFY from another wakes it, and it backs off while the database is away.
 */
export class OutboxRelay {
  private running = false;
  private task?: PeriodicTask;
  private listening?: Promise<void>;
  private stopListening?: () => void;
  private lastCleanup = 0;
  private readonly published?: Counter;
  private readonly failures?: Counter;
  private readonly onCommitted = () => this.nudge();

  constructor(private readonly options: RelayOptions) {
    if (options.metrics) {
      this.published = new Counter({
        name: 'outbox_published_total',
        help: 'Events confirmed by the broker',
        registers: [options.metrics],
      });
      this.failures = new Counter({ name: 'outbox_publish_failures_total', help: 'Failed publish attempts', registers: [options.metrics] });
      const db = options.db;
      new Gauge({
        name: 'outbox_pending',
        help: 'Events committed but not yet confirmed by the broker',
        registers: [options.metrics],
        async collect() {
          try {
            const [{ count }] = await db('outbox').whereNull('published_at').count<{ count: string }[]>({ count: '*' });
            this.set(Number(count));
          } catch {
            // the database is down: /readyz says so; the gauge keeps its last value
          }
        },
      });
      new Gauge({
        name: 'outbox_oldest_pending_age_seconds',
        help: 'How long the oldest event not yet confirmed by the broker has waited (0 when none waits)',
        registers: [options.metrics],
        async collect() {
          try {
            const row = await db('outbox')
              .whereNull('published_at')
              .first(db.raw('coalesce(extract(epoch FROM clock_timestamp() - min(created_at)), 0) AS age'));
            this.set(Number(row?.age ?? 0));
          } catch {
            // as above
          }
        },
      });
    }
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    outboxSignals.on('committed', this.onCommitted);
    if (this.options.listenUrl) this.listening = this.listen(this.options.listenUrl);
    const { logger, metrics, pollIntervalMs = 1000 } = this.options;
    this.task = startPeriodicTask({
      name: 'outbox-relay',
      work: () => this.drain(),
      intervalMs: pollIntervalMs,
      backoff: { baseMs: 250, maxMs: 5000 },
      logger,
      metrics,
    });
  }

  /** Runs a pass now, or right after the one in flight (which may have looked past the new rows). */
  nudge(): void {
    void this.task?.wake();
  }

  /** Stops after the batch in hand; what is unpublished stays in the outbox for the next start. */
  async stop(): Promise<void> {
    this.running = false;
    outboxSignals.off('committed', this.onCommitted);
    await this.task?.stop();
    this.stopListening?.();
    await this.listening;
  }

  private async listen(url: string): Promise<void> {
    while (this.running) {
      const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
      // Until the wait below, a lost connection must not become an unhandled 'error' event.
      client.on('error', () => undefined);
      try {
        await client.connect();
        client.on('notification', () => this.nudge());
        await client.query(`LISTEN ${OUTBOX_NOTIFY_CHANNEL}`);
        await new Promise<void>((resolve) => {
          this.stopListening = resolve;
          client.on('error', () => resolve());
          client.on('end', () => resolve());
          if (!this.running) resolve(); // stopped while connecting
        });
      } catch {
        // the database is unreachable; polling covers the gap
      }
      await client.end().catch(() => undefined);
      if (this.running) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 2000);
          this.stopListening = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      this.stopListening = undefined;
    }
  }

  /**
   * One pass: batches until the outbox has none due, a publish fails (those rows wait for their own
   * backoff) or the relay stops; then the retention clean-up. A database error fails the pass.
   */
  private async drain(): Promise<void> {
    for (;;) {
      const { published, failed } = await this.relayOnce();
      if (published === 0 || failed || !this.running) break;
    }
    await this.cleanup();
  }

  /** Publishes one batch. Returns how many were confirmed and whether any publish failed. */
  async relayOnce(): Promise<{ published: number; failed: boolean }> {
    const { db, transport, logger } = this.options;
    return db.transaction(async (trx) => {
      await holdDueBatchToIndexOrder(trx);
      const rows: OutboxRow[] = await dueBatch(trx, this.options.batchSize ?? 100);
      if (rows.length === 0) return { published: 0, failed: false };
      const results = await Promise.allSettled(
        rows.map((row) => {
          const event = typeof row.payload === 'string' ? (JSON.parse(row.payload) as CloudEvent) : row.payload;
          return publishInTrace(row.exchange, event, () => transport.publish(row.exchange, row.routing_key, event));
        }),
      );
      const sent = rows.filter((_, index) => results[index].status === 'fulfilled').map((row) => row.id);
      const failed = rows.filter((_, index) => results[index].status === 'rejected');
      await this.options.beforeMarkSent?.();
      if (sent.length > 0)
        await trx('outbox')
          .whereIn('id', sent)
          .update({ published_at: trx.raw('clock_timestamp()'), last_error: null });
      for (const row of failed) {
        const reason = (results[rows.indexOf(row)] as PromiseRejectedResult).reason as Error;
        const delayMs = retryDelayMs(row.attempts + 1, 500, 30000);
        await trx('outbox')
          .where('id', row.id)
          .update({
            attempts: row.attempts + 1,
            last_error: String(reason?.message ?? reason).slice(0, 500),
            next_attempt_at: trx.raw(`clock_timestamp() + interval '${delayMs} milliseconds'`),
          });
      }
      this.published?.inc(sent.length);
      this.failures?.inc(failed.length);
      if (failed.length > 0) logger.warn({ failed: failed.length, sent: sent.length }, 'some events could not be published; will retry');
      return { published: sent.length, failed: failed.length > 0 };
    });
  }

  private async cleanup(): Promise<void> {
    const now = Date.now();
    if (now - this.lastCleanup < 60_000) return;
    this.lastCleanup = now;
    const hours = this.options.retentionHours ?? 24 * 7;
    await this.options
      .db('outbox')
      .whereNotNull('published_at')
      .where('published_at', '<', this.options.db.raw(`now() - interval '${hours} hours'`))
      .delete();
  }
}
