import type { CloudEvent } from './cloud-event';

export interface ConsumeOptions {
  exchange: string;
  queue: string;
  bindings: string[];
  prefetch: number;
  /** Failed attempts before a message is dead-lettered. */
  maxAttempts: number;
  /** Resolves once the event's effect has committed; the message is acknowledged only then. */
  onMessage(event: CloudEvent): Promise<void>;
  onDeadLetter?(reason: string, body: Buffer): void;
}

export interface Subscription {
  stop(): Promise<void>;
}

/** What the outbox relay publishes to and consumers read from: RabbitMQ, or the in-process bus. */
export interface EventTransport {
  readonly kind: 'amqp' | 'in-process';
  declareExchange(exchange: string): Promise<void>;
  /** Resolves when the broker has confirmed the message; rejects otherwise. */
  publish(exchange: string, routingKey: string, event: CloudEvent): Promise<void>;
  consume(options: ConsumeOptions): Promise<Subscription>;
  check(): Promise<void>;
  /** Messages waiting in `queue` (ready, not yet delivered to a consumer); rejects when the broker is unreachable. */
  queueDepth(queue: string): Promise<number>;
  close(): Promise<void>;
}
