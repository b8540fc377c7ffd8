import type { FromSchema } from '@platform/http';

/** A JWT `sub`: visible text, no control characters. */
export const SUBJECT_PATTERN = '^[^\\u0000-\\u001f\\u007f\\s](?:[^\\u0000-\\u001f\\u007f]*[^\\u0000-\\u001f\\u007f\\s])?$';

/** Body of PUT /api/claims/claims/{id}/assignee: who works the claim from now on, or null to release it. */
export const assigneeRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['assignee'],
  properties: {
    assignee: {
      type: ['string', 'null'],
      minLength: 1,
      maxLength: 255,
      pattern: SUBJECT_PATTERN,
      description: 'A JWT `sub`, or null to release the claim',
    },
    reason: {
      type: 'string',
      minLength: 1,
      maxLength: 500,
      description: "Why (e.g. 'Bulk assign from the queue'): kept with the change on the claim's timeline, after who did it",
    },
  },
} as const;
export type AssigneeRequest = FromSchema<typeof assigneeRequestSchema>;

export const assigneeResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['claim_id', 'assignee', 'previous_assignee', 'version'],
  properties: {
    claim_id: { type: 'string', format: 'uuid' },
    assignee: { type: ['string', 'null'] },
    previous_assignee: { type: ['string', 'null'] },
    version: { type: 'integer', minimum: 1, description: 'The claim version after the change (also the ETag)' },
  },
} as const;
export type AssigneeResponse = FromSchema<typeof assigneeResponseSchema>;

/** Query of GET /api/claims/adjusters. */
export const adjustersQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 500, default: 200 },
    cursor: { type: 'string', minLength: 1, maxLength: 400, pattern: '^[A-Za-z0-9_-]+$', description: 'next_cursor of the previous page' },
  },
} as const;
export type AdjustersQuery = FromSchema<typeof adjustersQuerySchema>;

export const adjustersResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['items', 'next_cursor'],
  properties: {
    items: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['sub', 'last_seen_at'],
        properties: {
          sub: { type: 'string', description: 'The JWT `sub` to assign claims to' },
          last_seen_at: { type: 'string', format: 'date-time', description: 'When the service last saw them work (to the hour)' },
        },
      },
    },
    next_cursor: { type: ['string', 'null'] },
  },
} as const;
export type AdjustersPage = FromSchema<typeof adjustersResponseSchema>;
