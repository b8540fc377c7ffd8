import type { FromSchema } from '@platform/http';
import { eventKind, eventSchemaId } from '@platform/messaging';

const uuid = { type: 'string', format: 'uuid' } as const;

/** `data` of `evidence.control_created`: a control and its first version. */
export const controlCreatedData = {
  $id: eventSchemaId('evidence.control_created', 1),
  type: 'object',
  additionalProperties: false,
  required: ['control_id', 'key', 'control_version_id', 'version'],
  properties: { control_id: uuid, key: { type: 'string' }, control_version_id: uuid, version: { const: 1 } },
} as const;

/** `data` of `evidence.control_version_added`: a new version of a control's definition. */
export const controlVersionAddedData = {
  $id: eventSchemaId('evidence.control_version_added', 1),
  type: 'object',
  additionalProperties: false,
  required: ['control_id', 'key', 'control_version_id', 'version', 'changed_fields'],
  properties: {
    control_id: uuid,
    key: { type: 'string' },
    control_version_id: uuid,
    version: { type: 'integer', minimum: 2 },
    changed_fields: { type: 'array', items: { type: 'string' }, description: 'The definition fields the request changed, sorted' },
  },
} as const;

export const controlCreated = eventKind<FromSchema<typeof controlCreatedData>>({
  type: 'evidence.control_created',
  summary: 'A control was created, with its version 1',
  schema: controlCreatedData,
});

export const controlVersionAdded = eventKind<FromSchema<typeof controlVersionAddedData>>({
  type: 'evidence.control_version_added',
  summary: 'A new version of a control was added (runs keep the version they were created for)',
  schema: controlVersionAddedData,
});
