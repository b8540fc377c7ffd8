import type { Logger } from 'pino';
import { isDependencyUnavailable, retryDelayMs } from '@platform/http';
import { PoisonMessageError, topicMatches, type CloudEvent } from './cloud-event';
import { consumeInTrace } from './tracing';
import type { ConsumeOptions, EventTransport, Subscription } from './transport';

/**
 * The broker for a first `pnpm start` with no infrastructure: the same interface as RabbitMQ, inside
 * one process. Delivery is asynchronous, retried like the AMQP consumer, and dead-lettered in memory.
 */
export class InProcessBus implements EventTransport {
  readonly kind = 'in-process' as const;
  private readonly subscriptions = new Set<ConsumeOptions>();
  readonly deadLetters: { queue: string; reason: string; event: CloudEvent }[] = [];
  /** Events published to each queue and not yet consumed or dead-lettered. */
  private readonly waiting = new Map<string, number>();

  constructor(private readonly logger: Logger) {}

  async declareExchange(): Promise<void> {}

  async publish(exchange: string, routingKey: string, event: CloudEvent): Promise<void> {
    for (const subscription of this.subscriptions) {
      if (subscription.exchange === exchange && subscription.bindings.some((pattern) => topicMatches(pattern, routingKey))) {
        const copy = JSON.parse(JSON.stringify(event)) as CloudEvent;
        this.countWaiting(subscription.queue, 1);
        setImmediate(() => void this.deliver(subscription, copy, 0));
      }
    }
  }

  private countWaiting(queue: string, change: number): void {
    this.waiting.set(queue, (this.waiting.get(queue) ?? 0) + change);
  }

  private async deliver(subscription: ConsumeOptions, event: CloudEvent, attempts: number): Promise<void> {
    if (!this.subscriptions.has(subscription)) return this.countWaiting(subscription.queue, -1);
    try {
      await consumeInTrace(subscription, event);
      this.countWaiting(subscription.queue, -1);
    } catch (error) {
      const unavailable = isDependencyUnavailable(error);
      const failedAttempts = unavailable ? attempts : attempts + 1;
      if (error instanceof PoisonMessageError || failedAttempts >= subscription.maxAttempts) {
        const reason = (error as Error)?.message ?? String(error);
        this.logger.error({ reason, eventId: event.id }, 'dead-lettering event');
        this.deadLetters.push({ queue: subscription.queue, reason, event });
        this.countWaiting(subscription.queue, -1);
        subscription.onDeadLetter?.(reason, Buffer.from(JSON.stringify(event)));
        return;
      }
      setTimeout(() => void this.deliver(subscription, event, failedAttempts), retryDelayMs(failedAttempts + 1)).unref();
    }
  }

  async consume(options: ConsumeOptions): Promise<Subscription> {
    this.subscriptions.add(options);
    return { stop: async () => void this.subscriptions.delete(options) };
  }

  async check(): Promise<void> {}

  async queueDepth(queue: string): Promise<number> {
    return this.waiting.get(queue) ?? 0;
  }

  async close(): Promise<void> {
    this.subscriptions.clear();
    this.waiting.clear();
  }
}
