import { randomBytes } from 'node:crypto';
import amqp from 'amqplib';
import { DEFAULT_TEST_AMQP_URL } from './infrastructure';

export function testAmqpUrl(): string {
  return process.env.TEST_AMQP_URL ?? DEFAULT_TEST_AMQP_URL;
}

/** Names unique to this run, so parallel test files never share an exchange or a queue. */
export function uniqueName(prefix: string): string {
  return `test.${process.env.TEST_RUN_ID ?? 'local'}.${prefix}.${randomBytes(4).toString('hex')}`;
}

/** Removes what a test declared; the broker keeps nothing from a run. */
export async function deleteTopology(exchanges: string[], queues: string[]): Promise<void> {
  const connection = await amqp.connect(testAmqpUrl());
  const channel = await connection.createChannel();
  for (const queue of queues) await channel.deleteQueue(queue).catch(() => undefined);
  for (const exchange of exchanges) await channel.deleteExchange(exchange).catch(() => undefined);
  await connection.close().catch(() => undefined);
}

/** Reads every message currently in `queue` (e.g. a dead-letter queue) without consuming for good. */
export async function peekQueue(queue: string): Promise<{ content: string; headers: Record<string, unknown> }[]> {
  const connection = await amqp.connect(testAmqpUrl());
  const channel = await connection.createChannel();
  const messages: { content: string; headers: Record<string, unknown> }[] = [];
  for (;;) {
    const message = await channel.get(queue, { noAck: false });
    if (!message) break;
    messages.push({ content: message.content.toString(), headers: message.properties.headers ?? {} });
  }
  await connection.close();
  return messages;
}

/** Collects every event published to `exchange` for the assertions of a test. */
export async function captureEvents(exchange: string, bindings = ['#']) {
  const connection = await amqp.connect(testAmqpUrl());
  const channel = await connection.createChannel();
  await channel.assertExchange(exchange, 'topic', { durable: true });
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  for (const pattern of bindings) await channel.bindQueue(queue, exchange, pattern);
  const received: { routingKey: string; messageId?: string; contentType?: string; persistent?: boolean; body: any }[] = [];
  await channel.consume(queue, (message) => {
    if (!message) return;
    received.push({
      routingKey: message.fields.routingKey,
      messageId: message.properties.messageId,
      contentType: message.properties.contentType,
      persistent: message.properties.deliveryMode === 2,
      body: JSON.parse(message.content.toString()),
    });
    channel.ack(message);
  });
  return {
    received,
    async waitFor(predicate: (events: typeof received) => boolean, timeoutMs = 10000): Promise<typeof received> {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > deadline)
          throw new Error(`timed out waiting for events; have ${received.map((e) => e.routingKey).join(', ') || 'none'}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return received;
    },
    close: () => connection.close().catch(() => undefined),
  };
}

/**
 * Waits until `queue` has a consumer: it is then declared and bound too (a consumer binds before it
 * consumes). An event published before that is routed nowhere, so a test that starts a consumer and
 * publishes at once must wait for this first.
 */
export async function waitForConsumer(queue: string, timeoutMs = 20000): Promise<void> {
  const connection = await amqp.connect(testAmqpUrl());
  connection.on('error', () => undefined); // a checkQueue on a queue not yet declared closes its channel
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      const channel = await connection.createChannel();
      channel.on('error', () => undefined);
      const found = await channel.checkQueue(queue).catch(() => undefined);
      if (found && found.consumerCount > 0) return;
      if (found) await channel.close().catch(() => undefined);
      if (Date.now() > deadline) throw new Error(`queue ${queue} has no consumer after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await connection.close().catch(() => undefined);
  }
}
