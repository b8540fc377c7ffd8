import { NO_NUL } from '../runs/runs-schemas';

/** JSON Schemas (2020-12) of the controls API: requests and responses, one source for validation and OpenAPI. */
/** A control key, e.g. AC-2: letters, digits and . _ : - (up to 64). */
export const KEY_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$';

export const FREQUENCIES = ['continuous', 'daily', 'weekly', 'monthly', 'quarterly', 'annual', 'ad_hoc'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength, pattern: NO_NUL });
const nullableText = (maxLength: number) => ({ type: ['string', 'null'], minLength: 1, maxLength, pattern: NO_NUL });

const definitionProperties = {
  title: text(300),
  description: nullableText(10000),
  owner: nullableText(300),
  frequency: { enum: [...FREQUENCIES, null] },
  test_procedure: nullableText(10000),
  evidence_requirements: { type: 'array', maxItems: 100, items: text(1000) },
};

export const createControlRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['key', 'title'],
  properties: {
    key: { type: 'string', pattern: KEY_PATTERN, description: 'Unique (case-insensitive), e.g. AC-2' },
    ...definitionProperties,
  },
};

export const createVersionRequestSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  description: 'The definition fields that change; the others are carried over from the current version. `null` clears an optional field.',
  properties: definitionProperties,
};

export interface ControlDefinition {
  title: string;
  description: string | null;
  owner: string | null;
  frequency: Frequency | null;
  test_procedure: string | null;
  evidence_requirements: string[];
}

export interface CreateControlRequest extends Partial<ControlDefinition> {
  key: string;
  title: string;
}

export type CreateVersionRequest = Partial<ControlDefinition>;

const timestamp = { type: 'string', format: 'date-time' };
const uuid = { type: 'string', format: 'uuid' };

const definitionResponseProperties = {
  title: { type: 'string' },
  description: { type: ['string', 'null'] },
  owner: { type: ['string', 'null'] },
  frequency: { enum: [...FREQUENCIES, null] },
  test_procedure: { type: ['string', 'null'] },
  evidence_requirements: { type: 'array', items: { type: 'string' } },
};

export const controlVersionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['control_version_id', 'version', 'created_at', 'created_by', ...Object.keys(definitionResponseProperties)],
  properties: { control_version_id: uuid, version: { type: 'integer', minimum: 1 }, ...definitionResponseProperties, created_by: { type: 'string' }, created_at: timestamp },
};

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
};

export const controlResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: Object.keys(controlProperties),
  description: 'A control with the definition of its current version.',
  properties: controlProperties,
};

export const controlWithVersionsResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: [...Object.keys(controlProperties), 'versions'],
  properties: { ...controlProperties, versions: { type: 'array', items: controlVersionSchema, description: 'Every version, oldest first' } },
};

export const controlListResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['items', 'next_cursor'],
  properties: { items: { type: 'array', items: controlResponseSchema }, next_cursor: { type: ['string', 'null'] } },
};

export const listControlsQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
    cursor: { type: 'string', maxLength: 200 },
  },
};

export interface ListControlsQuery {
  limit?: number;
  cursor?: string;
}

export interface ControlVersion extends ControlDefinition {
  control_version_id: string;
  version: number;
  created_by: string;
  created_at: string;
}

export interface Control extends ControlDefinition {
  control_id: string;
  key: string;
  created_by: string;
  created_at: string;
  current_version: { control_version_id: string; version: number; created_at: string };
}
