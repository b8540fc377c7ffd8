import type { FromSchema } from '@platform/http';
import { escalationGateSchema } from '../escalations';
import { QUEUES } from '../triage-policy';

export const ruleHitSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['rule_id', 'description', 'effect'],
  properties: { rule_id: { type: 'string' }, description: { type: 'string' }, effect: { type: 'string' } },
} as const;

/** 201 body of POST /api/claims/claims/{id}/run-triage. */
export const triageResultSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'triage_id',
    'claim_id',
    'policy_version',
    'ran_at',
    'ran_by',
    'score',
    'queue',
    'rule_hits',
    'escalation_gates',
    'outcome',
    'escalation_id',
  ],
  properties: {
    triage_id: { type: 'string', format: 'uuid' },
    claim_id: { type: 'string', format: 'uuid' },
    policy_version: { type: 'string' },
    ran_at: { type: 'string', format: 'date-time' },
    ran_by: { type: 'string' },
    score: { type: 'integer', minimum: 0, maximum: 100 },
    queue: { enum: [...QUEUES] },
    rule_hits: { type: 'array', items: ruleHitSchema },
    escalation_gates: { type: 'array', items: escalationGateSchema },
    outcome: { enum: ['auto_routed', 'pending_human_decision'] },
    escalation_id: { type: ['string', 'null'], format: 'uuid' },
  },
} as const;

/** The 201 body of run-triage, and what the claim detail and adjuster kit show of a run. */
export type TriageResult = FromSchema<typeof triageResultSchema>;
