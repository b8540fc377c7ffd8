import type { FromSchema } from '@platform/http';
import { CLOSING_REASONS } from '../../shared/claim-vocabulary';

const daysSchema = { type: 'integer', minimum: 0, maximum: 36500 } as const;

/** Per closing reason, the days after closing that a claim's personal data is kept. */
const retentionDaysSchema = {
  type: 'object',
  additionalProperties: false,
  required: [...CLOSING_REASONS],
  properties: {
    paid: { ...daysSchema, description: 'Days kept after a claim closed paid' },
    denied: { ...daysSchema, description: 'Days kept after a claim closed denied' },
    withdrawn: { ...daysSchema, description: 'Days kept after a claim was withdrawn' },
    duplicate: { ...daysSchema, description: 'Days kept after a claim closed as a duplicate' },
  },
} as const;

/** PUT /api/claims/retention-policy: the whole new version, and why it is published. */
export const retentionPolicyRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['retention_days', 'reason'],
  properties: {
    retention_days: retentionDaysSchema,
    reason: { type: 'string', minLength: 1, maxLength: 2000, description: 'Why this version is published (kept with it)' },
  },
} as const;

export type RetentionPolicyRequest = FromSchema<typeof retentionPolicyRequestSchema>;
export type RetentionDays = RetentionPolicyRequest['retention_days'];

/** A published version of the retention policy. */
export const retentionPolicySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['version', 'retention_days', 'reason', 'published_by', 'published_at'],
  properties: {
    version: { type: 'integer', minimum: 1, description: 'Also the ETag; send it as If-Match to publish the next version' },
    retention_days: retentionDaysSchema,
    reason: { type: 'string' },
    published_by: { type: 'string', description: 'Who published it (the JWT sub; `system:migration` for version 1)' },
    published_at: { type: 'string', format: 'date-time' },
  },
} as const;

export type RetentionPolicy = FromSchema<typeof retentionPolicySchema>;

/** GET /api/claims/retention-policy/versions: every version, newest first. */
export const retentionPolicyVersionsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['items'],
  properties: { items: { type: 'array', items: retentionPolicySchema } },
} as const;
