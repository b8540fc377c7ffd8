import type { FromSchema } from '@platform/http';
import { GATES, QUEUES } from '../triage-policy';

export const escalationGateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['gate', 'reason'],
  properties: { gate: { enum: [...GATES] }, reason: { type: 'string' } },
} as const;

/**
 * Body of POST /api/claims/claims/{id}/escalations/{escalation_id}/decision. `accept` takes the queue
 * the triage run proposed (`queue` may be omitted; if sent it must equal the proposal, else 422);
 * `override` needs the queue the human chooses.
 */
export const escalationDecisionRequestSchema = {
  $id: 'EscalationDecisionRequest',
  type: 'object',
  additionalProperties: false,
  required: ['decision', 'rationale'],
  properties: {
    decision: { enum: ['accept', 'override'] },
    queue: { enum: [...QUEUES] },
    rationale: { type: 'string', minLength: 1, maxLength: 5000, pattern: '\\S' },
  },
  if: { properties: { decision: { const: 'override' } } },
  then: { required: ['queue'], properties: { queue: { enum: [...QUEUES] } } },
} as const;

export const escalationSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'escalation_id',
    'claim_id',
    'triage_id',
    'status',
    'gates',
    'proposed_queue',
    'decision',
    'queue',
    'rationale',
    'decided_by',
    'decided_at',
    'created_at',
  ],
  properties: {
    escalation_id: { type: 'string', format: 'uuid' },
    claim_id: { type: 'string', format: 'uuid' },
    triage_id: { type: 'string', format: 'uuid' },
    status: { enum: ['open', 'decided'] },
    gates: { type: 'array', items: escalationGateSchema },
    proposed_queue: { enum: [...QUEUES] },
    decision: { enum: ['accept', 'override', null] },
    queue: { enum: [...QUEUES, null] },
    rationale: { type: ['string', 'null'] },
    decided_by: { type: ['string', 'null'] },
    decided_at: { type: ['string', 'null'], format: 'date-time' },
    created_at: { type: 'string', format: 'date-time' },
  },
} as const;

export type EscalationDecisionRequest = FromSchema<typeof escalationDecisionRequestSchema>;
/** An escalation as the API shows it (claim detail, adjuster kit, decision response). */
export type Escalation = FromSchema<typeof escalationSchema>;
