import { SpanKind, inSpan } from '@platform/telemetry';
import type { CloudEvent } from './cloud-event';
import type { ConsumeOptions } from './transport';

/** The relay's publish of one event, a child of the trace that produced it (possibly long after that request ended). */
export function publishInTrace(exchange: string, event: CloudEvent, publish: () => Promise<void>): Promise<void> {
  return inSpan(
    `${exchange} publish`,
    { kind: SpanKind.PRODUCER, parent: event, attributes: messageAttributes(exchange, event, 'publish') },
    publish,
  );
}

/** A consumer's handling of one event, a child of the trace that produced it. */
export function consumeInTrace(options: ConsumeOptions, event: CloudEvent): Promise<void> {
  return inSpan(
    `${options.queue} process`,
    {
      kind: SpanKind.CONSUMER,
      parent: event,
      attributes: { ...messageAttributes(options.exchange, event, 'process'), 'messaging.destination.subscription.name': options.queue },
    },
    () => options.onMessage(event),
  );
}

function messageAttributes(exchange: string, event: CloudEvent, operation: string) {
  return {
    'messaging.system': 'rabbitmq',
    'messaging.operation.type': operation,
    'messaging.destination.name': exchange,
    'messaging.rabbitmq.destination.routing_key': event.type,
    'messaging.message.id': event.id,
    'cloudevents.event_id': event.id,
    'cloudevents.event_type': event.type,
  };
}
