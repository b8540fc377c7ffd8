import amqp from 'amqplib';
import { createLogger } from '@platform/http';
import { createDatabase, type Knex } from '@platform/db';
import {
  createTcpProxy,
  deleteTopology,
  eventually,
  openTestDatabase,
  peekQueue,
  testAmqpUrl,
  uniqueName,
  type TcpProxy,
} from '@platform/testing';
import { AmqpTransport } from './amqp-transport';
import { createEvent, type CloudEvent } from './cloud-event';
import { applyOnce, messagingMigrations } from './outbox';
import type { ConsumeOptions, Subscription } from './transport';

const logger = createLogger('amqp-consumer-test');
const exchange = uniqueName('consumer');
const queues: string[] = [];

function queueName(prefix: string): string {
  const queue = uniqueName(prefix);
  queues.push(queue, `${queue}.dlq`);
  return queue;
}

function claimEvent(type = 'claim.created'): CloudEvent {
  return createEvent({ source: '/claims', type, subject: 'c-1', data: { claim_id: 'c-1' } });
}

async function publishRaw(content: string | Buffer, routingKey = 'claim.created'): Promise<void> {
  const connection = await amqp.connect(testAmqpUrl());
  const channel = await connection.createConfirmChannel();
  await channel.assertExchange(exchange, 'topic', { durable: true });
  channel.publish(exchange, routingKey, Buffer.from(content), { persistent: true });
  await channel.waitForConfirms();
  await connection.close();
}

async function consumerCount(queue: string): Promise<number> {
  const connection = await amqp.connect(testAmqpUrl());
  try {
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    return (await channel.checkQueue(queue)).consumerCount;
  } catch {
    return 0;
  } finally {
    await connection.close().catch(() => undefined);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('AmqpTransport consumer', () => {
  let db: Knex;
  let cleanupDb: () => Promise<void>;
  let transport: AmqpTransport;
  const subscriptions: Subscription[] = [];

  async function consume(
    options: Partial<ConsumeOptions> & Pick<ConsumeOptions, 'queue' | 'onMessage'>,
    on = transport,
  ): Promise<Subscription> {
    const subscription = await on.consume({ exchange, bindings: ['claim.#'], prefetch: 5, maxAttempts: 3, ...options });
    subscriptions.push(subscription);
    await eventually(async () => (await consumerCount(options.queue)) > 0);
    return subscription;
  }

  async function effectsFor(id: string, consumer: string): Promise<number> {
    const [{ n }] = await db('effects').where({ event_id: id, consumer }).count({ n: '*' });
    return Number(n);
  }

  beforeAll(async () => {
    ({ db, cleanup: cleanupDb } = await openTestDatabase('messaging', messagingMigrations));
    await db.raw('CREATE TABLE effects (event_id text NOT NULL, consumer text NOT NULL)');
    transport = new AmqpTransport(testAmqpUrl(), logger);
    await transport.check();
    await transport.declareExchange(exchange);
  });

  afterAll(async () => {
    for (const subscription of subscriptions) await subscription.stop();
    await transport?.close();
    await deleteTopology([exchange], queues);
    await cleanupDb?.();
  });

  it('applies a duplicated event once although it is delivered twice', async () => {
    const queue = queueName('dup');
    let deliveries = 0;
    const apply = applyOnce(db, queue, async (event, trx) => {
      await trx('effects').insert({ event_id: event.id, consumer: queue });
    });
    const outcomes: boolean[] = [];
    await consume({
      queue,
      onMessage: async (event) => {
        deliveries += 1;
        outcomes.push(await apply(event));
      },
    });
    const event = claimEvent();
    await transport.publish(exchange, event.type, event);
    await transport.publish(exchange, event.type, event);
    await eventually(async () => outcomes.length === 2);
    expect(deliveries).toBe(2);
    expect(outcomes.sort()).toEqual([false, true]);
    expect(await effectsFor(event.id, queue)).toBe(1);
    expect(await db('inbox').where({ consumer: queue, event_id: event.id }).first()).toMatchObject({ event_type: 'claim.created' });
  });

  it('receives only the routing keys it is bound to', async () => {
    const queue = queueName('bound');
    const seen: string[] = [];
    await consume({ queue, bindings: ['claim.created'], onMessage: async (event) => void seen.push(event.type) });
    await transport.publish(exchange, 'claim.closed', claimEvent('claim.closed'));
    await transport.publish(exchange, 'claim.created', claimEvent('claim.created'));
    await eventually(async () => seen.length === 1);
    await sleep(200);
    expect(seen).toEqual(['claim.created']);
  });

  it('dead-letters a poison message (not JSON, not a CloudEvent) at once, without calling the handler', async () => {
    const queue = queueName('poison');
    let handled = 0;
    const deadLettered: string[] = [];
    await consume({ queue, onMessage: async () => void (handled += 1), onDeadLetter: (reason) => deadLettered.push(reason) });
    await publishRaw('this is not json');
    await publishRaw(JSON.stringify({ hello: 'world' }));
    await eventually(async () => deadLettered.length === 2);
    const dead = await peekQueue(`${queue}.dlq`);
    expect(dead.map((m) => m.content).sort()).toEqual(['this is not json', '{"hello":"world"}'].sort());
    for (const message of dead) {
      expect(message.headers['x-attempts']).toBe(1);
      expect(String(message.headers['x-last-error'])).toMatch(/^poison: /);
    }
    expect(handled).toBe(0);
  });

  it('retries a handler that keeps failing, then dead-letters it after maxAttempts with x-attempts', async () => {
    const queue = queueName('failing');
    let calls = 0;
    const deadLettered: string[] = [];
    await consume({
      queue,
      maxAttempts: 3,
      onMessage: async () => {
        calls += 1;
        throw new Error('the effect failed');
      },
      onDeadLetter: (reason) => deadLettered.push(reason),
    });
    const event = claimEvent();
    await transport.publish(exchange, event.type, event);
    await eventually(async () => deadLettered.length === 1);
    expect(calls).toBe(3);
    expect(deadLettered).toEqual(['the effect failed']);
    const dead = await peekQueue(`${queue}.dlq`);
    expect(dead).toHaveLength(1);
    expect(JSON.parse(dead[0].content).id).toBe(event.id);
    expect(dead[0].headers).toMatchObject({ 'x-attempts': 3, 'x-last-error': 'the effect failed' });
    expect(await peekQueue(queue)).toEqual([]);
  });

  it('succeeds on a retry after a transient failure, and dead-letters nothing', async () => {
    const queue = queueName('transient');
    let calls = 0;
    const applied: string[] = [];
    await consume({
      queue,
      maxAttempts: 3,
      onMessage: async (event) => {
        calls += 1;
        if (calls === 1) throw new Error('transient');
        applied.push(event.id);
      },
    });
    const event = claimEvent();
    await transport.publish(exchange, event.type, event);
    await eventually(async () => applied.length === 1);
    expect(applied).toEqual([event.id]);
    expect(await peekQueue(`${queue}.dlq`)).toEqual([]);
  });

  describe('with the database unreachable', () => {
    let proxy: TcpProxy;
    let proxiedDb: Knex;
    beforeAll(async () => {
      const url = new URL((db.client.config.connection as { connectionString: string }).connectionString);
      proxy = await createTcpProxy(url.hostname, Number(url.port || 5432));
      proxiedDb = createDatabase({ url: proxy.urlFor(url.toString()), poolMax: 2 });
    });
    afterAll(async () => {
      await proxiedDb?.destroy();
      await proxy?.close();
    });

    it('retries the message without consuming attempts and applies it once the database returns', async () => {
      const queue = queueName('dbdown');
      let calls = 0;
      const deadLettered: string[] = [];
      const apply = applyOnce(proxiedDb, queue, async (event, trx) => {
        await trx('effects').insert({ event_id: event.id, consumer: queue });
      });
      await consume({
        queue,
        maxAttempts: 1,
        onMessage: async (event) => {
          calls += 1;
          await apply(event);
        },
        onDeadLetter: (reason) => deadLettered.push(reason),
      });
      proxy.cut();
      const event = claimEvent();
      await transport.publish(exchange, event.type, event);
      await eventually(async () => calls >= 3, 10000);
      expect(await effectsFor(event.id, queue)).toBe(0);
      proxy.restore();
      await eventually(async () => (await effectsFor(event.id, queue)) === 1, 10000);
      expect(deadLettered).toEqual([]);
      expect(await peekQueue(`${queue}.dlq`)).toEqual([]);
    });
  });

  describe('when the broker connection drops', () => {
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

    it('reconnects, re-asserts its topology and resumes consuming', async () => {
      const queue = queueName('reconnect');
      const received: string[] = [];
      await consume({ queue, onMessage: async (event) => void received.push(event.id) }, proxied);

      const first = claimEvent();
      await transport.publish(exchange, first.type, first);
      await eventually(async () => received.includes(first.id));

      // An outage: what is published meanwhile waits in the durable queue.
      await sleep(300); // let the ack reach the broker: an ack lost with the connection means a redelivery (at least once)
      proxy.cut();
      await eventually(async () => (await consumerCount(queue)) === 0);
      const during = claimEvent();
      await transport.publish(exchange, during.type, during);
      await sleep(300);
      expect(received).not.toContain(during.id);
      proxy.restore();
      await eventually(async () => received.includes(during.id), 15000);

      // A second outage in which the queue itself is lost: the reconnect declares and binds it again.
      proxy.cut();
      await eventually(async () => (await consumerCount(queue)) === 0);
      await deleteTopology([], [queue]);
      proxy.restore();
      await eventually(async () => (await consumerCount(queue)) > 0, 15000);
      const after = claimEvent();
      await transport.publish(exchange, after.type, after);
      await eventually(async () => received.includes(after.id));
      expect(await consumerCount(queue)).toBe(1);
    });
  });
});
