import type { FromSchema } from '@platform/http';
import { NON_BLANK_TEXT_PATTERN } from '../../shared/claim-schemas';
import { SUBJECT_PATTERN } from '../assignment';

export const ACTIVITY_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export const ACTIVITY_KINDS = ['manual', 'first_contact_due', 'promised_update_due', 'documents_requested'] as const;
const sub = { type: 'string', minLength: 1, maxLength: 255, pattern: SUBJECT_PATTERN } as const;
const day = { type: 'string', format: 'date', description: 'A calendar day (YYYY-MM-DD)' } as const;

export const activityRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['subject', 'due_on', 'priority'],
  properties: {
    subject: { type: 'string', minLength: 1, maxLength: 200, pattern: NON_BLANK_TEXT_PATTERN },
    due_on: day,
    assignee: { ...sub, description: 'A JWT `sub`; the caller when omitted' },
    priority: { enum: [...ACTIVITY_PRIORITIES] },
  },
} as const;
export type ActivityRequest = FromSchema<typeof activityRequestSchema>;

export const reassignRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['assignee'],
  properties: { assignee: sub },
} as const;
export type ReassignRequest = FromSchema<typeof reassignRequestSchema>;

export const activitySchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'activity_id',
    'claim_id',
    'kind',
    'subject',
    'due_on',
    'priority',
    'assignee',
    'created_by',
    'created_at',
    'completed_by',
    'completed_at',
  ],
  properties: {
    activity_id: { type: 'string', format: 'uuid' },
    claim_id: { type: 'string', format: 'uuid' },
    kind: { enum: [...ACTIVITY_KINDS], description: '`manual`, or one the platform created itself' },
    subject: { type: 'string' },
    due_on: day,
    priority: { enum: [...ACTIVITY_PRIORITIES] },
    assignee: { type: 'string' },
    created_by: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
    completed_by: { type: ['string', 'null'] },
    completed_at: { type: ['string', 'null'], format: 'date-time' },
  },
} as const;
export type Activity = FromSchema<typeof activitySchema>;

export const diaryQuerySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['assignee'],
  properties: {
    assignee: { type: 'string', const: 'me', description: "Only `me` (the caller's own diary)" },
    due: {
      enum: ['overdue', 'today', 'week'],
      description: 'Due before today (UTC), today, or within the next 7 days; all open when omitted',
    },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
    cursor: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' },
  },
} as const;
export type DiaryQuery = FromSchema<typeof diaryQuerySchema>;

export const diaryPageSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['items', 'next_cursor'],
  properties: {
    items: { type: 'array', items: activitySchema, description: 'Open activities, earliest due first' },
    next_cursor: { type: ['string', 'null'] },
  },
} as const;

export const claimActivitiesSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['items'],
  properties: {
    items: { type: 'array', items: activitySchema, description: 'Open activities earliest due first, then completed ones latest first' },
  },
} as const;
