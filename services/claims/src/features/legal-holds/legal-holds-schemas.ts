import type { FromSchema } from '@platform/http';

/** POST …/legal-holds and POST …/legal-holds/{hold_id}/release: why (kept with the hold; never in an event). */
export const legalHoldReasonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['reason'],
  properties: { reason: { type: 'string', minLength: 1, maxLength: 2000 } },
} as const;

export type LegalHoldReason = FromSchema<typeof legalHoldReasonSchema>;

export const legalHoldSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['hold_id', 'claim_id', 'reason', 'placed_by', 'placed_at', 'released'],
  properties: {
    hold_id: { type: 'string', format: 'uuid' },
    claim_id: { type: 'string', format: 'uuid' },
    reason: { type: 'string' },
    placed_by: { type: 'string', description: 'Who placed it (JWT sub)' },
    placed_at: { type: 'string', format: 'date-time' },
    released: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['by', 'at', 'reason'],
      description: 'Null while the hold stands',
      properties: { by: { type: 'string' }, at: { type: 'string', format: 'date-time' }, reason: { type: 'string' } },
    },
  },
} as const;

export type LegalHold = FromSchema<typeof legalHoldSchema>;

export const legalHoldsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['items'],
  properties: { items: { type: 'array', items: legalHoldSchema, description: 'Oldest first, released ones included' } },
} as const;
