import amqp, { type ChannelModel, type ConfirmChannel, type ConsumeMessage } from 'amqplib';
import type { Logger } from 'pino';
import { isDependencyUnavailable, retryDelayMs } from '@platform/http';
import { CLOUDEVENT_CONTENT_TYPE, PoisonMessageError, parseCloudEvent, type CloudEvent } from './cloud-event';
import { consumeInTrace } from './tracing';
import type { ConsumeOptions, EventTransport, Subscription } from './transport';

const CONFIRM_TIMEOUT_MS = 10000;
const ATTEMPTS_HEADER = 'x-attempts';

type ChannelSetup = (channel: ConfirmChannel) => Promise<void>;

/**
 * RabbitMQ through one connection that reconnects with backoff. Every piece of topology and every
 * consumer is registered as a setup step and re-run on each new connection, so a broker restart
 * heals itself. Publishing uses a confirm channel: a publish resolves only once the broker has it.
 */
/**
 * Every queue the platform declares is a quorum queue, replicated across a cluster's nodes, whatever the
 * vhost's default type: a node lost loses no message. A queue's type is fixed when first declared.
 */
export const QUORUM = { 'x-queue-type': 'quorum' } as const;

/** The addresses in an AMQP_URL: one, or a cluster's nodes separated by commas. */
export function brokerUrls(value: string): string[] {
  const urls = value
    .split(',')
    .map((url) => url.trim())
    .filter(Boolean);
  if (urls.length === 0) throw new Error('no broker address given');
  return urls;
}

function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'an unparsable address';
  }
}

/** A consumer's queue: quorum, its failures dead-lettered to `deadLetterQueue`. */
export function consumerQueueArguments(deadLetterQueue: string): Record<string, string> {
  return {
    ...QUORUM,
    'x-dead-letter-exchange': '',
    'x-dead-letter-routing-key': deadLetterQueue,
    // A message the broker itself dead-letters is kept until the dead-letter queue confirms it.
    'x-dead-letter-strategy': 'at-least-once',
    'x-overflow': 'reject-publish',
  };
}

export class AmqpTransport implements EventTransport {
  readonly kind = 'amqp' as const;
  private connection?: ChannelModel;
  private publishChannel?: ConfirmChannel;
  private readonly setups = new Set<ChannelSetup>();
  private readonly exchanges = new Set<string>();
  private connecting?: Promise<void>;
  private closed = false;
  private reconnectAttempt = 0;
  private reconnectTimer?: NodeJS.Timeout;

  /** The cluster's nodes: a connection is tried on each in turn, starting after the one that failed last. */
  private readonly urls: string[];
  private nextUrl = 0;

  /** `url`: one broker address, or a cluster's node addresses separated by commas. */
  constructor(
    url: string,
    private readonly logger: Logger,
  ) {
    this.urls = brokerUrls(url);
  }

  /** Starts connecting in the background; a broker that is down now is retried until it is up. */
  start(): void {
    void this.ensureConnected().catch(() => undefined);
  }

  private ensureConnected(): Promise<void> {
    if (this.publishChannel) return Promise.resolve();
    if (this.closed) return Promise.reject(new Error('transport closed'));
    // A live connection whose publishing channel was closed by a channel error only needs a new channel.
    const connection = this.connection;
    this.connecting ??= (connection ? this.openPublishChannel(connection) : this.connect()).finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async connect(): Promise<void> {
    let connection: ChannelModel | undefined;
    try {
      connection = await this.connectToANode();
      if (this.closed) throw new Error('transport closed');
      const current = connection;
      connection.on('error', (error) => this.logger.warn({ err: error }, 'broker connection error'));
      connection.on('close', () => this.onConnectionLost(current));
      // Consumers registered from here on see the connection and set themselves up (see consume()).
      const setups = [...this.setups];
      this.connection = connection;
      await this.openPublishChannel(connection);
      for (const setup of setups) {
        if (!this.setups.has(setup)) continue;
        try {
          await this.runSetup(connection, setup);
        } catch (error) {
          this.logger.error({ err: error }, 'could not set up a consumer on the new connection');
        }
      }
      this.reconnectAttempt = 0;
      this.logger.info('connected to the broker');
    } catch (error) {
      if (connection) {
        if (this.connection === connection) {
          this.connection = undefined;
          this.publishChannel = undefined;
        }
        await connection.close().catch(() => undefined);
      }
      if (!this.closed) {
        this.logger.warn({ err: error }, 'broker unreachable; will retry');
        this.scheduleReconnect();
      }
      throw error;
    }
  }

  private async connectToANode(): Promise<ChannelModel> {
    let lastError: unknown;
    for (let tried = 0; tried < this.urls.length; tried++) {
      const url = this.urls[this.nextUrl];
      try {
        return await amqp.connect(url, { timeout: 3000 });
      } catch (error) {
        lastError = error;
        this.nextUrl = (this.nextUrl + 1) % this.urls.length;
        if (this.urls.length > 1) this.logger.warn({ err: error, node: redactUrl(url) }, 'broker node unreachable; trying the next');
      }
    }
    throw lastError;
  }

  /** The confirm channel that publishes; if a channel error closes it, the next publish opens another. */
  private async openPublishChannel(connection: ChannelModel): Promise<void> {
    const channel = await connection.createConfirmChannel();
    channel.on('error', (error) => this.logger.warn({ err: error }, 'broker channel error'));
    for (const exchange of this.exchanges) await channel.assertExchange(exchange, 'topic', { durable: true });
    channel.on('close', () => {
      if (this.publishChannel === channel) this.publishChannel = undefined;
    });
    if (this.connection !== connection) {
      await channel.close().catch(() => undefined);
      throw new Error('broker connection lost');
    }
    this.publishChannel = channel;
  }

  /** Runs a consumer's setup on a channel of its own; a channel error is logged, never thrown at the process. */
  private async runSetup(connection: ChannelModel, setup: ChannelSetup): Promise<void> {
    const channel = await connection.createConfirmChannel();
    channel.on('error', (error) => this.logger.warn({ err: error }, 'broker consumer channel error'));
    try {
      await setup(channel);
    } catch (error) {
      await channel.close().catch(() => undefined);
      throw error;
    }
  }

  /**
   * A consumer's channel closed while its connection lives on (a channel error, or the broker cancelled
   * the consumer because its queue was deleted): declare and consume again after a pause.
   */
  private resumeConsumer(connection: ChannelModel, setup: ChannelSetup, attempt = 1): void {
    const timer = setTimeout(
      () => {
        if (this.closed || this.connection !== connection || !this.setups.has(setup)) return;
        this.runSetup(connection, setup).catch((error) => {
          this.logger.error({ err: error }, 'could not resume a consumer; retrying');
          this.resumeConsumer(connection, setup, attempt + 1);
        });
      },
      retryDelayMs(attempt, 250, 5000),
    );
    timer.unref();
  }

  private onConnectionLost(connection: ChannelModel): void {
    if (this.connection !== connection) return;
    this.connection = undefined;
    this.publishChannel = undefined;
    if (!this.closed) {
      this.logger.warn('broker connection lost; reconnecting');
      this.scheduleReconnect();
    }
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    this.reconnectAttempt += 1;
    this.reconnectTimer = setTimeout(
      () => {
        this.reconnectTimer = undefined;
        void this.ensureConnected().catch(() => undefined);
      },
      retryDelayMs(this.reconnectAttempt, 250, 5000),
    );
    this.reconnectTimer.unref();
  }

  async declareExchange(exchange: string): Promise<void> {
    this.exchanges.add(exchange);
    if (this.publishChannel) await this.publishChannel.assertExchange(exchange, 'topic', { durable: true });
  }

  async publish(exchange: string, routingKey: string, event: CloudEvent): Promise<void> {
    await this.ensureConnected();
    const channel = this.publishChannel;
    if (!channel) throw new Error('broker unavailable');
    if (!this.exchanges.has(exchange)) await this.declareExchange(exchange);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('broker did not confirm in time')), CONFIRM_TIMEOUT_MS);
      try {
        channel.publish(
          exchange,
          routingKey,
          Buffer.from(JSON.stringify(event)),
          {
            persistent: true,
            contentType: CLOUDEVENT_CONTENT_TYPE,
            messageId: event.id,
            type: event.type,
            timestamp: Math.floor(Date.parse(event.time) / 1000),
          },
          (error) => {
            clearTimeout(timer);
            if (error) reject(error instanceof Error ? error : new Error(String(error)));
            else resolve();
          },
        );
      } catch (error) {
        clearTimeout(timer);
        reject(error);
      }
    });
  }

  async consume(options: ConsumeOptions): Promise<Subscription> {
    const deadLetterQueue = `${options.queue}.dlq`;
    let active: { channel: ConfirmChannel; tag: string } | undefined;
    const setup: ChannelSetup = async (channel) => {
      await channel.assertExchange(options.exchange, 'topic', { durable: true });
      await channel.assertQueue(deadLetterQueue, { durable: true, arguments: QUORUM });
      await channel.assertQueue(options.queue, { durable: true, arguments: consumerQueueArguments(deadLetterQueue) });
      for (const pattern of options.bindings) await channel.bindQueue(options.queue, options.exchange, pattern);
      await channel.prefetch(options.prefetch);
      const connection = this.connection;
      const { consumerTag } = await channel.consume(options.queue, (message) => {
        if (message) void this.deliver(channel, message, options, deadLetterQueue);
        // The broker cancelled the consumer (its queue was deleted): close the channel to start over.
        else void channel.close().catch(() => undefined);
      });
      channel.on('close', () => {
        if (connection && this.connection === connection && this.setups.has(setup)) this.resumeConsumer(connection, setup);
      });
      active = { channel, tag: consumerTag };
    };
    this.setups.add(setup);
    if (this.connection) {
      try {
        await this.runSetup(this.connection, setup);
      } catch (error) {
        this.setups.delete(setup);
        throw error;
      }
    } else this.start();
    return {
      stop: async () => {
        this.setups.delete(setup);
        if (active) await active.channel.close().catch(() => undefined);
      },
    };
  }

  private async deliver(channel: ConfirmChannel, message: ConsumeMessage, options: ConsumeOptions, deadLetterQueue: string): Promise<void> {
    const attempts = Number(message.properties.headers?.[ATTEMPTS_HEADER] ?? 0);
    try {
      const event = parseCloudEvent(message.content);
      await consumeInTrace(options, event);
      channel.ack(message);
    } catch (error) {
      try {
        await this.handleFailure(channel, message, options, deadLetterQueue, attempts, error);
      } catch (failure) {
        // The channel went away; the unacknowledged message is redelivered on the next connection.
        this.logger.warn({ err: failure }, 'could not settle a failed message');
      }
    }
  }

  private async handleFailure(
    channel: ConfirmChannel,
    message: ConsumeMessage,
    options: ConsumeOptions,
    deadLetterQueue: string,
    attempts: number,
    error: unknown,
  ): Promise<void> {
    if (isDependencyUnavailable(error)) {
      // The database is down: nothing is wrong with the message, so it waits without using an attempt.
      await delay(retryDelayMs(attempts + 1, 500, 5000));
      channel.nack(message, false, true);
      return;
    }
    const failedAttempts = attempts + 1;
    const reason = error instanceof PoisonMessageError ? `poison: ${error.message}` : ((error as Error)?.message ?? String(error));
    const headers = { ...message.properties.headers, [ATTEMPTS_HEADER]: failedAttempts, 'x-last-error': reason.slice(0, 500) };
    const properties = { ...message.properties, headers, persistent: true };
    if (error instanceof PoisonMessageError || failedAttempts >= options.maxAttempts) {
      this.logger.error({ reason, attempts: failedAttempts, messageId: message.properties.messageId }, 'dead-lettering message');
      await sendConfirmed(channel, deadLetterQueue, message.content, properties);
      options.onDeadLetter?.(reason, message.content);
    } else {
      this.logger.warn({ reason, attempts: failedAttempts, messageId: message.properties.messageId }, 'message failed; retrying');
      await delay(retryDelayMs(failedAttempts));
      await sendConfirmed(channel, options.queue, message.content, properties);
    }
    channel.ack(message);
  }

  async check(): Promise<void> {
    await this.ensureConnected();
  }

  async queueDepth(queue: string): Promise<number> {
    await this.ensureConnected();
    const connection = this.connection;
    if (!connection) throw new Error('broker unavailable');
    // A channel of its own: checking a queue that does not exist closes the channel it is asked on.
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    try {
      return (await channel.checkQueue(queue)).messageCount;
    } finally {
      await channel.close().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const connection = this.connection;
    this.connection = undefined;
    this.publishChannel = undefined;
    await connection?.close().catch(() => undefined);
  }
}

function sendConfirmed(channel: ConfirmChannel, queue: string, content: Buffer, properties: ConsumeMessage['properties']): Promise<void> {
  return new Promise((resolve, reject) => {
    const { headers, messageId, contentType, type, timestamp } = properties;
    channel.sendToQueue(queue, content, { headers, messageId, contentType, type, timestamp, persistent: true }, (error) =>
      error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(),
    );
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
