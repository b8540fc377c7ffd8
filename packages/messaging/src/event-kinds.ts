import { compile } from '@platform/http';
import type { CloudEvent } from './cloud-event';

/**
 * Where every event `data` schema is named: the CloudEvents `dataschema` of an event and the `$id` of
 * its schema (served in the gateway's /asyncapi.json). A new version of a schema gets a new URI.
 */
export const EVENT_SCHEMA_BASE = 'https://schemas.claims-platform.dev/events/';

export function eventSchemaId(type: string, version: number): string {
  return `${EVENT_SCHEMA_BASE}${type}/v${version}`;
}

/** A JSON Schema (2020-12) of an event's `data`, named by its `$id`. */
export type EventDataSchema = { readonly $id: string; readonly type: 'object' } & object;

/**
 * One kind of event a service publishes: its type (the routing key, also the audit action), the schema
 * of its data and the data's TypeScript type (`Data`, derived from the schema with FromSchema), so an
 * emit site that names the kind is held to build exactly that data.
 */
export interface EventKind<Data = unknown> {
  readonly type: string;
  /** One line for the AsyncAPI document: what happened. */
  readonly summary: string;
  readonly schema: EventDataSchema;
  /** Never set: carries `Data` for the type checker only. */
  readonly data?: Data;
}

export function eventKind<Data>(kind: { type: string; summary: string; schema: EventDataSchema }): EventKind<Data> {
  return kind;
}

/** What one service publishes: every kind of event, on which exchange, with which CloudEvents `source`. */
export interface EventCatalog {
  service: string;
  /** The exchange's default name (the contract's), configurable per deployment. */
  exchange: string;
  source: string;
  kinds: readonly EventKind[];
}

/**
 * What is wrong with a published event against its catalog: an unknown type, a `source` or `dataschema`
 * other than the kind's, or data its schema refuses. Empty when the event is exactly as documented.
 */
export function eventConformance(catalog: EventCatalog, event: CloudEvent): string[] {
  const kind = catalog.kinds.find((candidate) => candidate.type === event.type);
  if (!kind) return [`${event.type} is not a ${catalog.service} event`];
  const problems: string[] = [];
  if (event.source !== catalog.source) problems.push(`${event.type}: source ${event.source}, expected ${catalog.source}`);
  if (event.dataschema !== kind.schema.$id) problems.push(`${event.type}: dataschema ${event.dataschema}, expected ${kind.schema.$id}`);
  const validate = compile(kind.schema);
  if (!validate(event.data)) {
    problems.push(...(validate.errors ?? []).map((error) => `${event.type}: data${error.instancePath} ${error.message}`));
  }
  return problems;
}
