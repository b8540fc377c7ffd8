import amqp from 'amqplib';
import { createLogger } from '@platform/http';
import { captureEvents, createTcpProxy, deleteTopology, eventually, testAmqpUrl, uniqueName } from '@platform/testing';
import { AmqpTransport, consumerQueueArguments, QUORUM } from './amqp-transport';
import { createEvent } from './cloud-event';

const logger = createLogger('amqp-transport-test');
const exchanges: string[] = [];
const queues: string[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function names(prefix: string) {
  const exchange = uniqueName(`${prefix}.x`);
  const queue = uniqueName(`${prefix}.q`);
  exchanges.push(exchange);
  queues.push(queue, `${queue}.dlq`);
  return { exchange, queue };
}

const event = () => createEvent({ source: '/claims', type: 'claim.created', data: { n: 1 } });

/** Consumes every event of `exchange` through `queue`, pushing each id into `received` (when given). */
const consumeAll = (transport: AmqpTransport, { exchange, queue }: { exchange: string; queue: string }, received?: string[]) =>
  transport.consume({ exchange, queue, bindings: ['#'], prefetch: 1, maxAttempts: 3, onMessage: async (e) => void received?.push(e.id) });

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

describe('AmqpTransport', () => {
  const transports: AmqpTransport[] = [];
  const open = (url = testAmqpUrl()) => {
    const transport = new AmqpTransport(url, logger);
    transports.push(transport);
    return transport;
  };

  afterAll(async () => {
    for (const transport of transports) await transport.close();
    await deleteTopology(exchanges, queues);
  });

  it('rejects a publish while the broker is unreachable, and publishes once it is back', async () => {
    const { exchange } = names('down');
    const target = new URL(testAmqpUrl());
    const proxy = await createTcpProxy(target.hostname, Number(target.port || 5672));
    try {
      const transport = open(proxy.urlFor(testAmqpUrl()));
      proxy.cut();
      await expect(transport.publish(exchange, 'claim.created', event())).rejects.toThrow();
      await expect(transport.check()).rejects.toThrow();
      proxy.restore();
      const captured = await captureEvents(exchange);
      const published = event();
      await transport.publish(exchange, 'claim.created', published);
      await captured.waitFor((received) => received.some((e) => e.messageId === published.id));
      await captured.close();
    } finally {
      await proxy.close();
    }
  });

  it('starts a consumer registered while the broker is down once the broker is up', async () => {
    const { exchange, queue } = names('late');
    const target = new URL(testAmqpUrl());
    const proxy = await createTcpProxy(target.hostname, Number(target.port || 5672));
    try {
      proxy.cut();
      const transport = open(proxy.urlFor(testAmqpUrl()));
      const received: string[] = [];
      const subscription = await consumeAll(transport, { exchange, queue }, received);
      await sleep(300);
      expect(await consumerCount(queue)).toBe(0);
      proxy.restore();
      await eventually(async () => (await consumerCount(queue)) === 1, 15000);
      const published = event();
      await transport.publish(exchange, 'claim.created', published);
      await eventually(async () => received.includes(published.id));
      await subscription.stop();
      await transport.close();
    } finally {
      await proxy.close();
    }
  });

  it('keeps publishing after a channel error closes its publish channel', async () => {
    const { exchange } = names('chan');
    const transport = open();
    await transport.check();
    await transport.declareExchange(exchange);
    await deleteTopology([exchange], []);
    // The exchange is gone: the broker closes the publishing channel with 404.
    await expect(transport.publish(exchange, 'claim.created', event())).rejects.toThrow();
    const captured = await captureEvents(exchange);
    const next = event();
    await transport.publish(exchange, 'claim.created', next);
    await captured.waitFor((received) => received.some((e) => e.messageId === next.id));
    await captured.close();
  });

  it('re-declares its queue and resumes when the broker cancels the consumer (queue deleted)', async () => {
    const { exchange, queue } = names('cancel');
    const transport = open();
    await transport.check();
    const received: string[] = [];
    const subscription = await consumeAll(transport, { exchange, queue }, received);
    await eventually(async () => (await consumerCount(queue)) === 1);
    await deleteTopology([], [queue]);
    await eventually(async () => (await consumerCount(queue)) === 1, 10000);
    const after = event();
    await transport.publish(exchange, 'claim.created', after);
    await eventually(async () => received.includes(after.id));
    await subscription.stop();
  });

  it('sets up a consumer once even when consume() is called while the connection is being made', async () => {
    const { exchange, queue } = names('race');
    const transport = open();
    transport.start();
    await sleep(5);
    const subscription = await consumeAll(transport, { exchange, queue });
    await transport.check();
    await eventually(async () => (await consumerCount(queue)) >= 1);
    await sleep(300);
    expect(await consumerCount(queue)).toBe(1);
    await subscription.stop();
    await eventually(async () => (await consumerCount(queue)) === 0);
  });

  it('declares its queue and dead-letter queue as quorum queues, whatever the vhost default', async () => {
    const { exchange, queue } = names('quorum');
    const transport = open();
    await transport.check();
    const subscription = await consumeAll(transport, { exchange, queue });
    await subscription.stop();
    // A queue's type is one of its arguments: redeclaring it with another type is refused by the broker.
    const declaredAs = async (name: string, type: 'quorum' | 'classic') => {
      const args = name === queue ? consumerQueueArguments(`${queue}.dlq`) : QUORUM;
      const connection = await amqp.connect(testAmqpUrl());
      try {
        const channel = await connection.createChannel();
        channel.on('error', () => undefined);
        await channel.assertQueue(name, { durable: true, arguments: { ...args, 'x-queue-type': type } });
        return true;
      } catch {
        return false;
      } finally {
        await connection.close().catch(() => undefined);
      }
    };
    for (const name of [queue, `${queue}.dlq`]) {
      expect(await declaredAs(name, 'classic')).toBe(false);
      expect(await declaredAs(name, 'quorum')).toBe(true);
    }
  });

  it('a consumer whose topology cannot be declared fails alone; the others still start', async () => {
    const { exchange, queue } = names('conflict');
    const good = names('good');
    // The queue already exists with other arguments: declaring it as a consumer queue is refused.
    const connection = await amqp.connect(testAmqpUrl());
    const channel = await connection.createChannel();
    await channel.assertQueue(queue, { durable: false });
    await connection.close();

    const transport = open();
    await transport.check();
    await expect(consumeAll(transport, { exchange, queue })).rejects.toThrow();
    const received: string[] = [];
    await consumeAll(transport, { exchange: good.exchange, queue: good.queue }, received);
    const published = event();
    await transport.publish(good.exchange, 'claim.created', published);
    await eventually(async () => received.includes(published.id));
  });

  it('given a cluster’s node addresses, fails over to the next node when the one it uses goes away', async () => {
    const { exchange, queue } = names('failover');
    const target = new URL(testAmqpUrl());
    const first = await createTcpProxy(target.hostname, Number(target.port || 5672));
    const second = await createTcpProxy(target.hostname, Number(target.port || 5672));
    try {
      const transport = open(`${first.urlFor(testAmqpUrl())}, ${second.urlFor(testAmqpUrl())}`);
      await transport.check();
      const received: string[] = [];
      await consumeAll(transport, { exchange, queue }, received);
      first.cut();
      const published = event();
      // the first publish may meet the lost connection; the transport reconnects through the second node
      await eventually(() =>
        transport.publish(exchange, 'claim.created', published).then(
          () => true,
          () => false,
        ),
      );
      await eventually(async () => received.includes(published.id));
      expect(first.isCut).toBe(true);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('does not connect after close(), even when close() comes while it is connecting', async () => {
    const target = new URL(testAmqpUrl());
    const proxy = await createTcpProxy(target.hostname, Number(target.port || 5672));
    try {
      const transport = new AmqpTransport(proxy.urlFor(testAmqpUrl()), logger);
      transport.start();
      await transport.close();
      await sleep(500);
      await expect(transport.check()).rejects.toThrow('transport closed');
    } finally {
      await proxy.close();
    }
  });
});
