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
