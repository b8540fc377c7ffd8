import amqp from 'amqplib';
import pino from 'pino';
import { Registry } from 'prom-client';
import { createTcpProxy, deleteTopology, testAmqpUrl, uniqueName } from '@platform/testing';
import { AmqpTransport } from './amqp-transport';
import { createEvent } from './cloud-event';
import { InProcessBus } from './in-process-bus';
import { queueDepthGauge } from './queue-metrics';

const logger = pino({ level: 'silent' });

async function depthOf(registry: Registry, queue: string): Promise<string | undefined> {
  const text = await registry.metrics();
  return new RegExp(`^messaging_queue_depth\\{queue="${queue.replace(/\./g, '\\.')}"\\} (\\d+)$`, 'm').exec(text)?.[1];
}

describe('messaging_queue_depth', () => {
  const queue = uniqueName('depth.q');
  afterAll(() => deleteTopology([], [queue]));

  it("reads the messages waiting in the consumer's queue from RabbitMQ at each scrape, and is absent while the broker cannot be asked", async () => {
    const connection = await amqp.connect(testAmqpUrl());
    const real = new URL(testAmqpUrl());
    const proxy = await createTcpProxy(real.hostname, Number(real.port || 5672));
    const transport = new AmqpTransport(proxy.urlFor(testAmqpUrl()), logger);
    try {
      const channel = await connection.createConfirmChannel();
      await channel.assertQueue(queue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
      const registry = new Registry();
      queueDepthGauge(registry, transport, queue);
      expect(await depthOf(registry, queue)).toBe('0');
      for (let i = 0; i < 3; i++) channel.sendToQueue(queue, Buffer.from(`m${i}`), { persistent: true });
      await channel.waitForConfirms();
      expect(await depthOf(registry, queue)).toBe('3');
      proxy.cut();
      expect(await depthOf(registry, queue)).toBeUndefined();
      proxy.restore();
      expect(await depthOf(registry, queue)).toBe('3');
    } finally {
      await transport.close();
      await connection.close();
      await proxy.close();
    }
  });

  it('counts the events the in-process bus holds for a queue until they are consumed', async () => {
    const bus = new InProcessBus(logger);
    const registry = new Registry();
    queueDepthGauge(registry, bus, 'audit');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await bus.consume({ exchange: 'claims', queue: 'audit', bindings: ['claim.#'], prefetch: 1, maxAttempts: 3, onMessage: () => held });
    await bus.publish('claims', 'claim.created', createEvent({ source: '/claims', type: 'claim.created', data: {} }));
    await bus.publish('claims', 'claim.created', createEvent({ source: '/claims', type: 'claim.created', data: {} }));
    expect(await depthOf(registry, 'audit')).toBe('2');
    release();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await depthOf(registry, 'audit')).toBe('0');
    await bus.close();
  });
});
