import type { FromSchema } from '@platform/http';

/** Query of GET /api/evidence/binders; every other parameter is a 400. */
export const listBindersQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    run_id: { type: 'string', format: 'uuid', description: 'Only the binders of this run' },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
    cursor: { type: 'string', minLength: 1, maxLength: 200, description: 'next_cursor of the previous page (opaque)' },
  },
} as const;

export type ListBindersQuery = FromSchema<typeof listBindersQuerySchema, { keepDefaultedPropertiesOptional: true }>;

/** A binder in a list: everything but its manifest, which can be megabytes (GET /binders/{id} has it). */
export const binderSummarySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['binder_id', 'run_id', 'final', 'created_at', 'created_by', 'sha256', 'download_url'],
  properties: {
    binder_id: { type: 'string', format: 'uuid' },
    run_id: { type: 'string', format: 'uuid' },
    final: { type: 'boolean', description: 'True only for an approved run; otherwise the binder is a draft' },
    created_at: { type: 'string', format: 'date-time' },
    created_by: { type: 'string' },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the canonical JSON of the manifest' },
    download_url: { type: 'string', format: 'uri' },
  },
} as const;

export type BinderSummary = FromSchema<typeof binderSummarySchema>;

export const binderListResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['items', 'next_cursor'],
  properties: { items: { type: 'array', items: binderSummarySchema }, next_cursor: { type: ['string', 'null'] } },
} as const;
