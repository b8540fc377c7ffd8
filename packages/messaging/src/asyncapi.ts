import { CLOUDEVENT_CONTENT_TYPE } from './cloud-event';
import type { EventCatalog, EventKind } from './event-kinds';

const AMQP_BINDING_VERSION = '0.3.0';

/** `claim.attachment_added` → `ClaimAttachmentAdded`: the component name of a kind. */
function componentName(type: string): string {
  return type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

/** The CloudEvents 1.0 envelope (structured JSON) of one kind: its attributes fixed, `data` its schema. */
function envelopeSchema(catalog: EventCatalog, kind: EventKind, dataRef: string): object {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['specversion', 'id', 'source', 'type', 'subject', 'time', 'datacontenttype', 'dataschema', 'data'],
    properties: {
      specversion: { const: '1.0' },
      id: { type: 'string', format: 'uuid', description: 'Also the AMQP messageId; consumers de-duplicate by it' },
      source: { const: catalog.source },
      type: { const: kind.type, description: 'Also the routing key and the audit action (CONTRACT.md §5), hence no reverse-DNS prefix' },
      subject: { type: 'string', description: 'The entity the event is about' },
      time: { type: 'string', format: 'date-time' },
      datacontenttype: { const: 'application/json' },
      dataschema: { const: kind.schema.$id, description: 'The `$id` of the data schema' },
      traceparent: {
        type: 'string',
        pattern: '^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$',
        description: 'CloudEvents distributed-tracing extension: the W3C traceparent of the producer (present when tracing is on)',
      },
      tracestate: {
        type: 'string',
        description: 'CloudEvents distributed-tracing extension: the W3C tracestate that goes with traceparent',
      },
      data: { $ref: dataRef },
    },
  };
}

/**
 * The AsyncAPI 3.0 document of the platform's events, built from the services' event catalogs: one
 * channel per routing key on its topic exchange, one `send` operation per kind, each message the
 * CloudEvents envelope with its data schema (whose `$id` is the events' `dataschema`).
 */
export function asyncApiDocument(catalogs: readonly EventCatalog[]): object {
  const channels: Record<string, object> = {};
  const operations: Record<string, object> = {};
  const messages: Record<string, object> = {};
  const schemas: Record<string, object> = {};
  for (const catalog of catalogs) {
    for (const kind of catalog.kinds) {
      const name = componentName(kind.type);
      const dataName = `${name}Data`;
      schemas[dataName] = kind.schema;
      messages[name] = {
        name: kind.type,
        title: kind.type,
        summary: kind.summary,
        contentType: CLOUDEVENT_CONTENT_TYPE,
        payload: envelopeSchema(catalog, kind, `#/components/schemas/${dataName}`),
        bindings: { amqp: { messageType: kind.type, bindingVersion: AMQP_BINDING_VERSION } },
      };
      channels[name] = {
        address: kind.type,
        title: `${kind.type} on ${catalog.exchange}`,
        description: `Routing key \`${kind.type}\` on the durable topic exchange \`${catalog.exchange}\` (its default name; configurable per deployment).`,
        messages: { [name]: { $ref: `#/components/messages/${name}` } },
        bindings: {
          amqp: {
            is: 'routingKey',
            exchange: { name: catalog.exchange, type: 'topic', durable: true, autoDelete: false, vhost: '/' },
            bindingVersion: AMQP_BINDING_VERSION,
          },
        },
      };
      operations[`publish${name}`] = {
        action: 'send',
        title: `The ${catalog.service} service publishes ${kind.type}`,
        summary: kind.summary,
        description:
          'Written to the transactional outbox with the change, relayed with publisher confirms: persistent, messageId = event id.',
        channel: { $ref: `#/channels/${name}` },
        messages: [{ $ref: `#/channels/${name}/messages/${name}` }],
        bindings: { amqp: { deliveryMode: 2, mandatory: false, bindingVersion: AMQP_BINDING_VERSION } },
      };
    }
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Claims platform events',
      version: '1.0.0',
      description: [
        `Every event the services publish, as CloudEvents 1.0 in structured JSON mode (content type \`${CLOUDEVENT_CONTENT_TYPE}\`).`,
        "The event `type` is the routing key and the audit log's `action`, exactly as CONTRACT.md §5 fixes it (`claim.created`, …), so it carries no reverse-DNS prefix.",
        "Every event names the JSON Schema of its `data` in `dataschema` (an absolute URI, the schema's `$id` in `components.schemas`). Event data carries identifiers and facts, never claimant personal data.",
        'The evidence service consumes `claim.#` from its durable queue (manual acks after commit, de-duplication by event id, dead-lettering of a message that keeps failing).',
      ].join('\n\n'),
    },
    defaultContentType: CLOUDEVENT_CONTENT_TYPE,
    servers: {
      rabbitmq: {
        host: 'rabbitmq:5672',
        protocol: 'amqp',
        protocolVersion: '0.9.1',
        description: "The platform's RabbitMQ broker (AMQP_URL)",
      },
    },
    channels,
    operations,
    components: { messages, schemas },
  };
}
