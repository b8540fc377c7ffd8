import { Client } from 'pg';
import { Registry } from 'prom-client';
import { createLogger } from '@platform/http';
import { createDatabase, type Knex } from '@platform/db';
import {
  captureEvents,
  createTcpProxy,
  deleteTopology,
  eventually,
  openTestDatabase,
  testAmqpUrl,
  uniqueName,
  type TcpProxy,
} from '@platform/testing';
import { AmqpTransport } from './amqp-transport';
import { createEvent, type CloudEvent } from './cloud-event';
import { OUTBOX_NOTIFY_CHANNEL, applyOnce, enqueueEvent, messagingMigrations } from './outbox';
import { OutboxRelay, dueBatch, holdDueBatchToIndexOrder, type RelayOptions } from './relay';
import type { EventTransport, Subscription } from './transport';

const logger = createLogger('relay-test');
const exchanges: string[] = [];
const queues: string[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function newExchange(prefix: string): string {
  const exchange = uniqueName(prefix);
  exchanges.push(exchange);
  return exchange;
}

function claimEvent(n: number): CloudEvent {
  return createEvent({ source: '/claims', type: 'claim.created', subject: `c-${n}`, data: { n } });
}

function counts(ids: (string | undefined)[]): Map<string, number> {
  const result = new Map<string, number>();
  for (const id of ids) if (id) result.set(id, (result.get(id) ?? 0) + 1);
  return result;
}

describe('OutboxRelay with PostgreSQL and RabbitMQ', () => {
  let db: Knex;
  let databaseUrl: string;
  let cleanupDb: () => Promise<void>;
  let transport: AmqpTransport;
  const relays: OutboxRelay[] = [];
  const closers: (() => Promise<unknown>)[] = [];

  function startRelay(options: Partial<RelayOptions> = {}): OutboxRelay {
    const relay = new OutboxRelay({ db, transport, logger, pollIntervalMs: 200, ...options });
    relays.push(relay);
    relay.start();
    return relay;
  }

  async function commit(exchange: string, events: CloudEvent[]): Promise<void> {
    for (const event of events) await db.transaction((trx) => enqueueEvent(trx, exchange, event));
  }

  async function capture(exchange: string) {
    const captured = await captureEvents(exchange);
    closers.push(captured.close);
    return captured;
  }

  async function unpublished(exchange: string): Promise<number> {
    const [{ n }] = await db('outbox').where({ exchange }).whereNull('published_at').count({ n: '*' });
    return Number(n);
  }

  beforeAll(async () => {
    ({ db, url: databaseUrl, cleanup: cleanupDb } = await openTestDatabase('messaging', messagingMigrations));
    await db.raw('CREATE TABLE effects (event_id text NOT NULL)');
    transport = new AmqpTransport(testAmqpUrl(), logger);
    await transport.check();
  });

  afterEach(async () => {
    await Promise.all(relays.splice(0).map((relay) => relay.stop()));
    for (const close of closers.splice(0)) await close();
  });

  afterAll(async () => {
    await transport?.close();
    await deleteTopology(exchanges, queues);
    await cleanupDb?.();
  });

  it('does not publish an event whose transaction rolled back', async () => {
    const exchange = newExchange('rollback');
    const captured = await capture(exchange);
    startRelay();
    const rolledBack = claimEvent(0);
    await expect(
      db.transaction(async (trx) => {
        await enqueueEvent(trx, exchange, rolledBack);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const committed = claimEvent(1);
    await commit(exchange, [committed]);
    await captured.waitFor((events) => events.some((e) => e.messageId === committed.id));
    await sleep(300);
    expect(captured.received.map((e) => e.messageId)).toEqual([committed.id]);
    expect(await db('outbox').where({ id: rolledBack.id }).first()).toBeUndefined();
  });

  it('reports how long the oldest unpublished event has waited, and 0 once the outbox is drained', async () => {
    const exchange = newExchange('relay.age');
    const metrics = new Registry();
    const relay = new OutboxRelay({ db, transport, logger, metrics });
    const age = async () => (await metrics.getSingleMetric('outbox_oldest_pending_age_seconds')!.get()).values[0].value;
    const [waiting, newer] = [claimEvent(1), claimEvent(2)];
    await commit(exchange, [waiting, newer]);
    await db('outbox')
      .where('id', waiting.id)
      .update({ created_at: db.raw("clock_timestamp() - interval '90 seconds'") });
    expect(await age()).toBeGreaterThanOrEqual(90);
    expect(await age()).toBeLessThan(120);
    await relay.relayOnce();
    expect(await age()).toBe(0);
  });

  it('publishes persistent CloudEvents routed by type and marks them published', async () => {
    const exchange = newExchange('shape');
    const captured = await capture(exchange);
    startRelay();
    const event = claimEvent(1);
    await commit(exchange, [event]);
    const [message] = await captured.waitFor((events) => events.length === 1);
    expect(message).toMatchObject({
      routingKey: 'claim.created',
      messageId: event.id,
      contentType: 'application/cloudevents+json',
      persistent: true,
    });
    expect(message.body).toEqual(event);
    await eventually(async () => (await unpublished(exchange)) === 0);
  });

  describe('with the broker unreachable', () => {
    let proxy: TcpProxy;
    let proxied: AmqpTransport;
    beforeAll(async () => {
      const url = new URL(testAmqpUrl());
      proxy = await createTcpProxy(url.hostname, Number(url.port || 5672));
      proxied = new AmqpTransport(proxy.urlFor(testAmqpUrl()), logger);
      await proxied.check();
    });
    afterAll(async () => {
      await proxied?.close();
      await proxy?.close();
    });

    it('writes still commit and their events are published, once each, after the broker returns', async () => {
      const exchange = newExchange('outage');
      await proxied.declareExchange(exchange);
      const captured = await capture(exchange);
      startRelay({ transport: proxied });

      proxy.cut();
      const events = Array.from({ length: 5 }, (_, n) => claimEvent(n));
      await commit(exchange, events);
      expect(
        Number(
          (
            await db('outbox')
              .whereIn(
                'id',
                events.map((e) => e.id),
              )
              .count({ n: '*' })
          )[0].n,
        ),
      ).toBe(5);

      // The relay tries, fails and backs off; nothing is lost or marked published.
      await eventually(async () => {
        const rows = await db('outbox').whereIn(
          'id',
          events.map((e) => e.id),
        );
        return rows.every((row) => row.attempts > 0 && row.last_error && !row.published_at);
      });
      expect(captured.received).toEqual([]);

      proxy.restore();
      await captured.waitFor((received) => received.length >= events.length, 20000);
      await eventually(async () => (await unpublished(exchange)) === 0, 10000);
      await sleep(500);
      const received = counts(captured.received.map((e) => e.messageId));
      expect([...received.keys()].sort()).toEqual(events.map((e) => e.id).sort());
      expect([...received.values()].every((n) => n === 1)).toBe(true);
      const rows = await db('outbox').whereIn(
        'id',
        events.map((e) => e.id),
      );
      expect(rows.every((row) => row.published_at !== null && row.last_error === null)).toBe(true);
    });
  });

  it('a relay killed mid-batch publishes nothing twice that a consumer would apply twice', async () => {
    const exchange = newExchange('crash');
    const queue = uniqueName('crash.consumer');
    queues.push(queue, `${queue}.dlq`);
    let deliveries = 0;
    const apply = applyOnce(db, queue, async (event, trx) => {
      await trx('effects').insert({ event_id: event.id });
    });
    const subscription: Subscription = await transport.consume({
      exchange,
      queue,
      bindings: ['#'],
      prefetch: 10,
      maxAttempts: 3,
      onMessage: async (event) => {
        await apply(event);
        deliveries += 1;
      },
    });
    closers.push(() => subscription.stop());
    const events = Array.from({ length: 3 }, (_, n) => claimEvent(n));
    await commit(exchange, events);

    // The first relay publishes the batch, then dies before it can mark it sent.
    const crashing = new OutboxRelay({
      db,
      transport,
      logger,
      beforeMarkSent: async () => {
        throw new Error('killed after publishing');
      },
    });
    await expect(crashing.relayOnce()).rejects.toThrow('killed after publishing');
    expect(await unpublished(exchange)).toBe(3);

    // Its successor finds the rows still pending and publishes them again.
    startRelay();
    await eventually(async () => (await unpublished(exchange)) === 0);
    await eventually(async () => deliveries === 6);
    const applied = await db('effects')
      .whereIn(
        'event_id',
        events.map((e) => e.id),
      )
      .pluck('event_id');
    expect(applied.sort()).toEqual(events.map((e) => e.id).sort());
    expect(await db('inbox').where({ consumer: queue }).count({ n: '*' })).toEqual([{ n: '3' }]);
  });

  it('two relays on the same outbox publish each row once (FOR UPDATE SKIP LOCKED)', async () => {
    const exchange = newExchange('concurrent');
    const captured = await capture(exchange);
    const events = Array.from({ length: 60 }, (_, n) => claimEvent(n));
    await db.transaction(async (trx) => {
      for (const event of events) await enqueueEvent(trx, exchange, event);
    });
    const publishedBy = [0, 0];
    const slowed = (index: number): EventTransport => ({
      ...transport,
      kind: 'amqp',
      declareExchange: (name) => transport.declareExchange(name),
      consume: (options) => transport.consume(options),
      check: () => transport.check(),
      queueDepth: (queue) => transport.queueDepth(queue),
      close: async () => undefined,
      publish: async (name, routingKey, event) => {
        await sleep(5);
        await transport.publish(name, routingKey, event);
        publishedBy[index] += 1;
      },
    });
    startRelay({ transport: slowed(0), batchSize: 5 });
    startRelay({ transport: slowed(1), batchSize: 5 });
    await eventually(async () => (await unpublished(exchange)) === 0, 15000);
    await captured.waitFor((received) => received.length >= events.length);
    await sleep(300);
    const received = counts(captured.received.map((e) => e.messageId));
    expect(received.size).toBe(events.length);
    expect([...received.values()].every((n) => n === 1)).toBe(true);
    expect(publishedBy[0] + publishedBy[1]).toBe(events.length);
    expect(publishedBy[0]).toBeGreaterThan(0);
    expect(publishedBy[1]).toBeGreaterThan(0);
  });

  async function listening(): Promise<boolean> {
    const { rows } = await db.raw(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%'",
    );
    return rows[0].n > 0;
  }

  describe('with its database unreachable', () => {
    let proxy: TcpProxy;
    let proxiedDb: Knex;
    beforeAll(async () => {
      const url = new URL(databaseUrl);
      proxy = await createTcpProxy(url.hostname, Number(url.port || 5432));
      proxiedDb = createDatabase({ url: proxy.urlFor(databaseUrl), poolMax: 2 });
    });
    afterAll(async () => {
      await proxiedDb?.destroy();
      await proxy?.close();
    });

    it('keeps running, listens again and publishes what was committed once the database returns', async () => {
      const exchange = newExchange('dbdown');
      const captured = await capture(exchange);
      const metrics = new Registry();
      startRelay({ db: proxiedDb, listenUrl: proxy.urlFor(databaseUrl), metrics });
      await eventually(listening);
      proxy.cut();
      await eventually(async () => !(await listening()));
      const events = Array.from({ length: 3 }, (_, n) => claimEvent(n));
      await commit(exchange, events);
      await sleep(800);
      expect(captured.received).toEqual([]);
      proxy.restore();
      await captured.waitFor((received) => received.length >= events.length, 15000);
      await eventually(async () => (await unpublished(exchange)) === 0, 10000);
      await eventually(listening, 10000);
      expect(counts(captured.received.map((e) => e.messageId)).size).toBe(events.length);
      // its passes run on the periodic-task runner, which counted the ones the outage failed
      const failures = await metrics.getSingleMetric('periodic_task_failures_total')!.get();
      expect(failures.values.find((value) => value.labels.task === 'outbox-relay')?.value).toBeGreaterThan(0);
    });
  });

  describe('LISTEN/NOTIFY', () => {
    /** Writes an outbox row from another connection, as another process would: no in-process signal. */
    async function commitElsewhere(exchange: string, event: CloudEvent): Promise<void> {
      const client = new Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        await client.query('BEGIN');
        await client.query('INSERT INTO outbox (id, exchange, routing_key, payload) VALUES ($1, $2, $3, $4)', [
          event.id,
          exchange,
          event.type,
          JSON.stringify(event),
        ]);
        await client.query('SELECT pg_notify($1, $2)', [OUTBOX_NOTIFY_CHANNEL, exchange]);
        await client.query('COMMIT');
      } finally {
        await client.end();
      }
    }

    it('wakes the relay as soon as a commit notifies, long before the next poll', async () => {
      const exchange = newExchange('notify');
      const captured = await capture(exchange);
      startRelay({ listenUrl: databaseUrl, pollIntervalMs: 60000 });
      await eventually(listening);
      await sleep(200);
      const event = claimEvent(1);
      const started = Date.now();
      await commitElsewhere(exchange, event);
      await captured.waitFor((received) => received.some((e) => e.messageId === event.id), 5000);
      expect(Date.now() - started).toBeLessThan(5000);
    });

    it('without LISTEN, a row written by another process waits for the poll', async () => {
      const exchange = newExchange('nonotify');
      const captured = await capture(exchange);
      startRelay({ pollIntervalMs: 60000 });
      await sleep(300);
      await commitElsewhere(exchange, claimEvent(1));
      await sleep(1500);
      expect(captured.received).toEqual([]);
      expect(await unpublished(exchange)).toBe(1);
    });

    it('is woken in-process by a commit through enqueueEvent even without LISTEN', async () => {
      const exchange = newExchange('signal');
      const captured = await capture(exchange);
      startRelay({ pollIntervalMs: 60000 });
      await sleep(300);
      const event = claimEvent(1);
      await commit(exchange, [event]);
      await captured.waitFor((received) => received.some((e) => e.messageId === event.id), 5000);
    });

    it('stops cleanly, closing its LISTEN connection', async () => {
      const relay = startRelay({ listenUrl: databaseUrl, pollIntervalMs: 60000 });
      await eventually(listening);
      await relay.stop();
      await eventually(async () => !(await listening()), 5000);
    });

    it('leaves no LISTEN connection behind when stopped while it is still connecting', async () => {
      const relay = startRelay({ listenUrl: databaseUrl, pollIntervalMs: 60000 });
      await relay.stop();
      await sleep(1000);
      expect(await listening()).toBe(false);
    });
  });
});

describe("the relay's batch query on PostgreSQL", () => {
  let db: Knex;
  let cleanupDb: () => Promise<void>;

  beforeAll(async () => {
    ({ db, cleanup: cleanupDb } = await openTestDatabase('messaging', messagingMigrations));
  });

  afterAll(async () => {
    await cleanupDb?.();
  });

  beforeEach(async () => {
    await db('outbox').delete();
  });

  /** Rows inserted pending, `due` seconds ago (negative: in the future), with a payload of a real event's size. */
  async function insertPending(count: number, dueSecondsAgo: (n: number) => number): Promise<string[]> {
    const rows = Array.from({ length: count }, (_, n) => {
      const event = claimEvent(n);
      return {
        id: event.id,
        exchange: 'x',
        routing_key: event.type,
        payload: JSON.stringify({ ...event, data: { n, note: 'x'.repeat(400) } }),
        next_attempt_at: db.raw(`clock_timestamp() - make_interval(secs => ?)`, [dueSecondsAgo(n)]),
      };
    });
    for (let i = 0; i < rows.length; i += 500) await db('outbox').insert(rows.slice(i, i + 500));
    return rows.map((row) => row.id);
  }

  async function batchPlan(): Promise<{ rows: number; nodes: string[] }> {
    return db.transaction(async (trx) => {
      await holdDueBatchToIndexOrder(trx);
      const { sql, bindings } = dueBatch(trx, 100).toSQL();
      const { rows } = await trx.raw(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, bindings);
      const plan = rows[0]['QUERY PLAN'][0].Plan;
      const nodes: string[] = [];
      const walk = (node: { 'Node Type': string; Plans?: unknown[] }) => {
        nodes.push(node['Node Type']);
        for (const child of node.Plans ?? []) walk(child as typeof node);
      };
      walk(plan);
      return { rows: plan['Actual Rows'], nodes };
    });
  }

  it('returns the rows due, the longest due first, and none that is not yet due', async () => {
    const [fiveSecondsAgo, twoSecondsAgo, inAnHour] = await insertPending(3, (n) => [5, 2, -3600][n]);
    const published = (await insertPending(1, () => 10))[0];
    await db('outbox')
      .where({ id: published })
      .update({ published_at: db.raw('clock_timestamp()') });
    const due: { id: string }[] = await db.transaction((trx) => dueBatch(trx, 100));
    const dueIds = due.map((row) => row.id);
    expect(dueIds).toEqual([fiveSecondsAgo, twoSecondsAgo]);
    expect(dueIds).not.toContain(inAnHour);
  });

  it.each([
    ['with no statistics (never analysed: autovacuum off, as on the CI machine)', false],
    ['after an analyse', true],
  ])('is an index scan in the index order up to the bound, not a sort or a bitmap over every unvacuumed entry, %s', async (_, analysed) => {
    // Between two vacuums of a busy outbox (and always on a server with autovacuum off, as on the CI
    // machine) published rows stay in the heap and their entries in the pending index: here 3,000 of them.
    const publishedIds = await insertPending(3000, (n) => 600 - n * 0.1);
    await db('outbox')
      .whereIn('id', publishedIds)
      .update({ published_at: db.raw('clock_timestamp()') });
    await insertPending(2, () => 1);
    if (analysed) await db.raw('ANALYZE outbox'); // what autovacuum's analyse knows of the table
    const heapPages = Number((await db.raw(`SELECT pg_relation_size('outbox') / 8192 AS pages`)).rows[0].pages);
    expect(heapPages).toBeGreaterThan(200);

    await batchPlan(); // the first batch after them passes the published rows' entries and marks them dead
    const next = await batchPlan();
    expect(next.rows).toBe(2);
    // read in the index's order up to the bound: no sort of every pending row, no bitmap of every entry.
    // (How many pages the next batch reads depends on whether every other snapshot has moved past the
    // published rows, so the entries could be marked dead: 16 alone, 317 in a CI run beside other suites.)
    expect(next.nodes).toEqual(['Limit', 'LockRows', 'Index Scan']);
  });
});
