import type { FromSchema } from '@platform/http';
import { NO_NUL } from '../../shared/schema-patterns';

/** JSON Schemas (2020-12) of the controls API: requests and responses, one source for validation and OpenAPI. */
/** A control key, e.g. AC-2: letters, digits and . _ : - (up to 64). */
export const KEY_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$';

export const FREQUENCIES = ['continuous', 'daily', 'weekly', 'monthly', 'quarterly', 'annual', 'ad_hoc'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

const text = <Max extends number>(maxLength: Max) => ({ type: 'string', minLength: 1, maxLength, pattern: NO_NUL }) as const;
const nullableText = <Max extends number>(maxLength: Max) =>
  ({ type: ['string', 'null'], minLength: 1, maxLength, pattern: NO_NUL }) as const;

const definitionProperties = {
  title: text(300),
  description: nullableText(10000),
  owner: nullableText(300),
  frequency: { enum: [...FREQUENCIES, null] },
  test_procedure: nullableText(10000),
  evidence_requirements: { type: 'array', maxItems: 100, items: text(1000) },
} as const;

const DEFINITION_FIELDS = ['title', 'description', 'owner', 'frequency', 'test_procedure', 'evidence_requirements'] as const;

export const createControlRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['key', 'title'],
  properties: {
    key: { type: 'string', pattern: KEY_PATTERN, description: 'Unique (case-insensitive), e.g. AC-2' },
    ...definitionProperties,
  },
} as const;

export const createVersionRequestSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  description: 'The definition fields that change; the others are carried over from the current version. `null` clears an optional field.',
  properties: definitionProperties,
} as const;

export type CreateControlRequest = FromSchema<typeof createControlRequestSchema>;
export type CreateVersionRequest = FromSchema<typeof createVersionRequestSchema>;

const timestamp = { type: 'string', format: 'date-time' } as const;
const uuid = { type: 'string', format: 'uuid' } as const;

const definitionResponseProperties = {
  title: { type: 'string' },
  description: { type: ['string', 'null'] },
  owner: { type: ['string', 'null'] },
  frequency: { enum: [...FREQUENCIES, null] },
  test_procedure: { type: ['string', 'null'] },
  evidence_requirements: { type: 'array', items: { type: 'string' } },
} as const;

export const controlVersionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['control_version_id', 'version', 'created_at', 'created_by', ...DEFINITION_FIELDS],
  properties: {
    control_version_id: uuid,
    version: { type: 'integer', minimum: 1 },
    ...definitionResponseProperties,
    created_by: { type: 'string' },
    created_at: timestamp,
  },
} as const;

const controlProperties = {
  control_id: uuid,
  key: { type: 'string' },
  ...definitionResponseProperties,
  created_by: { type: 'string' },
  created_at: timestamp,
  current_version: {
    type: 'object',
    additionalProperties: false,
    required: ['control_version_id', 'version', 'created_at'],
    properties: { control_version_id: uuid, version: { type: 'integer', minimum: 1 }, created_at: timestamp },
  },
} as const;

export const controlResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['control_id', 'key', ...DEFINITION_FIELDS, 'created_by', 'created_at', 'current_version'],
  description: 'A control with the definition of its current version.',
  properties: controlProperties,
} as const;

export const controlWithVersionsResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: [...Object.keys(controlProperties), 'versions'],
  properties: {
    ...controlProperties,
    versions: { type: 'array', items: controlVersionSchema, description: 'Every version, oldest first' },
  },
} as const;

export const controlListResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['items', 'next_cursor'],
  properties: { items: { type: 'array', items: controlResponseSchema }, next_cursor: { type: ['string', 'null'] } },
} as const;

export const listControlsQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
    cursor: { type: 'string', maxLength: 200, description: 'next_cursor of the previous page (opaque)' },
  },
} as const;

export type ListControlsQuery = FromSchema<typeof listControlsQuerySchema, { keepDefaultedPropertiesOptional: true }>;
export type ControlVersion = FromSchema<typeof controlVersionSchema>;
/** What a version defines (every field present; `null` when not set). */
export type ControlDefinition = Pick<ControlVersion, (typeof DEFINITION_FIELDS)[number]>;
export type Control = FromSchema<typeof controlResponseSchema>;

export const dueControlSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['control_id', 'key', 'title', 'owner', 'frequency', 'control_version_id', 'version', 'period_start', 'period_end'],
  description: 'A control whose current period (of its current version’s frequency, in UTC) has no run yet.',
  properties: {
    control_id: uuid,
    key: { type: 'string' },
    title: { type: 'string' },
    owner: { type: ['string', 'null'] },
    frequency: { enum: ['daily', 'weekly', 'monthly', 'quarterly', 'annual'] },
    control_version_id: { ...uuid, description: 'The current version, which a run of the period would test' },
    version: { type: 'integer', minimum: 1 },
    period_start: { type: 'string', format: 'date', description: 'First day of the current period' },
    period_end: { type: 'string', format: 'date', description: 'Last day of the current period (inclusive, as a run’s period_end)' },
  },
} as const;

export const dueControlListResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['items', 'next_cursor'],
  properties: { items: { type: 'array', items: dueControlSchema }, next_cursor: { type: ['string', 'null'] } },
} as const;

export type DueControl = FromSchema<typeof dueControlSchema>;
