/** JSON Schemas (2020-12) of runs, submission and decisions. */
import type { FromSchema } from '@platform/http';
import { YEAR_1000_TO_9999 } from '../../shared/schema-patterns';

const uuid = { type: 'string', format: 'uuid' } as const;
const date = { type: 'string', format: 'date', pattern: YEAR_1000_TO_9999, description: 'A calendar date, YYYY-MM-DD' } as const;
const timestamp = { type: 'string', format: 'date-time' } as const;
const nullableTimestamp = { type: ['string', 'null'], format: 'date-time' } as const;

export const RUN_STATUSES = ['open', 'in_review', 'approved', 'rejected'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const createRunRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['control_version_id', 'period_start', 'period_end'],
  properties: { control_version_id: uuid, period_start: date, period_end: date },
} as const;

export type CreateRunRequest = FromSchema<typeof createRunRequestSchema>;

export const decisionRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['decision', 'rationale'],
  properties: {
    decision: { enum: ['approved', 'rejected'] },
    rationale: {
      type: 'string',
      minLength: 1,
      maxLength: 10000,
      pattern: '^(?=[\\s\\S]*\\S)[^\\u0000]*$',
      description: 'Why; required and not blank',
    },
  },
} as const;

export type DecisionRequest = FromSchema<typeof decisionRequestSchema>;

export const runResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['run_id', 'control_version_id', 'period_start', 'period_end', 'status', 'created_by', 'created_at'],
  properties: {
    run_id: uuid,
    control_version_id: uuid,
    period_start: date,
    period_end: date,
    status: { enum: [...RUN_STATUSES] },
    created_by: { type: 'string' },
    created_at: timestamp,
  },
} as const;

export type Run = FromSchema<typeof runResponseSchema>;

export const decisionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['decision_id', 'run_id', 'decision', 'rationale', 'decided_by', 'decided_at'],
  properties: {
    decision_id: uuid,
    run_id: uuid,
    decision: { enum: ['approved', 'rejected'] },
    rationale: { type: 'string' },
    decided_by: { type: 'string' },
    decided_at: timestamp,
  },
} as const;

export type Decision = FromSchema<typeof decisionSchema>;

export const runStateSchema = {
  type: 'object',
  additionalProperties: false,
  required: [...runResponseSchema.required, 'control_id', 'control_key', 'control_version', 'submitted_by', 'submitted_at'],
  properties: {
    ...runResponseSchema.properties,
    control_id: uuid,
    control_key: { type: 'string' },
    control_version: { type: 'integer' },
    submitted_by: { type: ['string', 'null'] },
    submitted_at: nullableTimestamp,
  },
} as const;

/** A run with its control version and who submitted it. */
export type RunState = FromSchema<typeof runStateSchema>;
