import { randomUUID } from 'node:crypto';
import { currentTraceContext } from '@platform/telemetry';

/** CloudEvents 1.0, structured JSON mode. Data carries identifiers and facts, never personal data. */
export interface CloudEvent<T = Record<string, unknown>> {
  specversion: '1.0';
  id: string;
  source: string;
  type: string;
  subject?: string;
  time: string;
  datacontenttype: 'application/json';
  /** The URI naming the schema `data` adheres to (the `$id` of the kind's schema). */
  dataschema?: string;
  /** CloudEvents distributed-tracing extension: the W3C trace context of the code that produced the event. */
  traceparent?: string;
  tracestate?: string;
  data: T;
}

export const CLOUDEVENT_CONTENT_TYPE = 'application/cloudevents+json';

export function createEvent<T extends Record<string, unknown>>(fields: {
  source: string;
  type: string;
  subject?: string;
  dataschema?: string;
  data: T;
}): CloudEvent<T> {
  return {
    specversion: '1.0',
    id: randomUUID(),
    source: fields.source,
    type: fields.type,
    ...(fields.subject ? { subject: fields.subject } : {}),
    time: new Date().toISOString(),
    datacontenttype: 'application/json',
    ...(fields.dataschema ? { dataschema: fields.dataschema } : {}),
    // Stored with the outbox row, so the relay and the consumers continue the producer's trace later.
    ...currentTraceContext(),
    data: fields.data,
  };
}

export class PoisonMessageError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'PoisonMessageError';
  }
}

/** Reads a message body as a CloudEvent; anything else can never succeed and is poison. */
export function parseCloudEvent(body: Buffer | string): CloudEvent {
  let value: unknown;
  try {
    value = JSON.parse(body.toString());
  } catch {
    throw new PoisonMessageError('body is not JSON');
  }
  const event = value as Partial<CloudEvent>;
  if (!event || typeof event !== 'object' || event.specversion !== '1.0') throw new PoisonMessageError('not a CloudEvents 1.0 event');
  for (const field of ['id', 'source', 'type', 'time'] as const) {
    if (typeof event[field] !== 'string' || event[field] === '') throw new PoisonMessageError(`CloudEvent ${field} is missing`);
  }
  if (!event.data || typeof event.data !== 'object') throw new PoisonMessageError('CloudEvent data is missing');
  return event as CloudEvent;
}

/** AMQP-style topic matching: `*` is one word, `#` zero or more. */
export function topicMatches(pattern: string, routingKey: string): boolean {
  const match = (p: string[], k: string[]): boolean => {
    if (p.length === 0) return k.length === 0;
    const [head, ...rest] = p;
    if (head === '#') return match(rest, k) || (k.length > 0 && match(p, k.slice(1)));
    if (k.length === 0) return false;
    return (head === '*' || head === k[0]) && match(rest, k.slice(1));
  };
  return match(pattern.split('.'), routingKey.split('.'));
}
