/** JSON Schemas (2020-12) of runs, submission and decisions. */
const uuid = { type: 'string', format: 'uuid' };
/** Years 1000–9999: what PostgreSQL stores as a date without surprise (year 0000 does not exist there). */
export const YEAR_1000_TO_9999 = '^[1-9][0-9]{3}-';
/** Text PostgreSQL can store: no NUL characters. */
export const NO_NUL = '^[^\\u0000]*$';
const date = { type: 'string', format: 'date', pattern: YEAR_1000_TO_9999, description: 'A calendar date, YYYY-MM-DD' };
const timestamp = { type: 'string', format: 'date-time' };
const nullableTimestamp = { type: ['string', 'null'], format: 'date-time' };

export const RUN_STATUSES = ['open', 'in_review', 'approved', 'rejected'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const createRunRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['control_version_id', 'period_start', 'period_end'],
  properties: { control_version_id: uuid, period_start: date, period_end: date },
};

export interface CreateRunRequest {
  control_version_id: string;
  period_start: string;
  period_end: string;
}

export const decisionRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['decision', 'rationale'],
  properties: {
    decision: { enum: ['approved', 'rejected'] },
    rationale: { type: 'string', minLength: 1, maxLength: 10000, pattern: '^(?=[\\s\\S]*\\S)[^\\u0000]*$', description: 'Why; required and not blank' },
  },
};

export interface DecisionRequest {
  decision: 'approved' | 'rejected';
  rationale: string;
}

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
};

export interface Run {
  run_id: string;
  control_version_id: string;
  period_start: string;
  period_end: string;
  status: RunStatus;
  created_by: string;
  created_at: string;
}

export interface RunState extends Run {
  control_id: string;
  control_key: string;
  control_version: number;
  submitted_by: string | null;
  submitted_at: string | null;
}

export const decisionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['decision_id', 'run_id', 'decision', 'rationale', 'decided_by', 'decided_at'],
  properties: { decision_id: uuid, run_id: uuid, decision: { enum: ['approved', 'rejected'] }, rationale: { type: 'string' }, decided_by: { type: 'string' }, decided_at: timestamp },
};

export interface Decision {
  decision_id: string;
  run_id: string;
  decision: 'approved' | 'rejected';
  rationale: string;
  decided_by: string;
  decided_at: string;
}

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
};
