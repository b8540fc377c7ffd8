import type { FromSchema } from '@platform/http';
import { eventKind, eventSchemaId } from '@platform/messaging';

const uuid = { type: 'string', format: 'uuid' } as const;
const date = { type: 'string', format: 'date' } as const;

/** `data` of `evidence.run_created`. */
export const runCreatedData = {
  $id: eventSchemaId('evidence.run_created', 1),
  type: 'object',
  additionalProperties: false,
  required: ['run_id', 'control_id', 'control_version_id', 'period_start', 'period_end'],
  properties: { run_id: uuid, control_id: uuid, control_version_id: uuid, period_start: date, period_end: date },
} as const;

/** `data` of `evidence.run_submitted`. */
export const runSubmittedData = {
  $id: eventSchemaId('evidence.run_submitted', 1),
  type: 'object',
  additionalProperties: false,
  required: ['run_id', 'status', 'evidence_count'],
  properties: { run_id: uuid, status: { const: 'in_review' }, evidence_count: { type: 'integer', minimum: 0 } },
} as const;

/** `data` of `evidence.run_decided`. */
export const runDecidedData = {
  $id: eventSchemaId('evidence.run_decided', 1),
  type: 'object',
  additionalProperties: false,
  required: ['run_id', 'decision_id', 'decision'],
  properties: { run_id: uuid, decision_id: uuid, decision: { enum: ['approved', 'rejected'] } },
} as const;

export const runCreated = eventKind<FromSchema<typeof runCreatedData>>({
  type: 'evidence.run_created',
  summary: 'A run was opened to collect the evidence of one control version for one period',
  schema: runCreatedData,
});

export const runSubmitted = eventKind<FromSchema<typeof runSubmittedData>>({
  type: 'evidence.run_submitted',
  summary: 'A run was submitted for review: its evidence is frozen until it is decided',
  schema: runSubmittedData,
});

export const runDecided = eventKind<FromSchema<typeof runDecidedData>>({
  type: 'evidence.run_decided',
  summary: "An approver (not the run's creator, submitter or a contributor) approved or rejected a run",
  schema: runDecidedData,
});
