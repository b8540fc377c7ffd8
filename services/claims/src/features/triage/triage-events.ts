import type { FromSchema } from '@platform/http';
import { eventKind, eventSchemaId } from '@platform/messaging';
import { claimEventProperties } from '../../shared/claim-change';
import { CLAIM_STAGES } from '../../shared/claim-vocabulary';
import { QUEUES } from './triage-policy';

const gates = { type: 'array', items: { type: 'string' }, description: 'The escalation gates raised' } as const;

/** `data` of `claim.triaged`. */
export const claimTriagedData = {
  $id: eventSchemaId('claim.triaged', 1),
  type: 'object',
  additionalProperties: false,
  required: ['claim_id', 'actor', 'triage_id', 'policy_version', 'score', 'queue', 'outcome', 'gates', 'escalation_id', 'stage'],
  properties: {
    ...claimEventProperties,
    triage_id: { type: 'string', format: 'uuid' },
    policy_version: { type: 'string' },
    score: { type: 'integer', minimum: 0, maximum: 100 },
    queue: { enum: [...QUEUES], description: 'The queue the policy routed to (proposed, when a gate asks a human)' },
    outcome: { enum: ['auto_routed', 'pending_human_decision'] },
    gates,
    escalation_id: { type: ['string', 'null'], format: 'uuid' },
    stage: { enum: [...CLAIM_STAGES] },
  },
} as const;

/** `data` of `claim.escalation_decided`. */
export const claimEscalationDecidedData = {
  $id: eventSchemaId('claim.escalation_decided', 1),
  type: 'object',
  additionalProperties: false,
  required: ['claim_id', 'actor', 'escalation_id', 'triage_id', 'decision', 'proposed_queue', 'queue', 'gates', 'stage'],
  properties: {
    ...claimEventProperties,
    escalation_id: { type: 'string', format: 'uuid' },
    triage_id: { type: 'string', format: 'uuid' },
    decision: { enum: ['accept', 'override'] },
    proposed_queue: { enum: [...QUEUES] },
    queue: { enum: [...QUEUES] },
    gates,
    stage: { enum: [...CLAIM_STAGES] },
  },
} as const;

export const claimTriaged = eventKind<FromSchema<typeof claimTriagedData>>({
  type: 'claim.triaged',
  summary: 'The triage policy scored the claim and routed it, or raised gates for a human to decide',
  schema: claimTriagedData,
});

export const claimEscalationDecided = eventKind<FromSchema<typeof claimEscalationDecidedData>>({
  type: 'claim.escalation_decided',
  summary: 'A human accepted or overrode the queue a gated triage proposed',
  schema: claimEscalationDecidedData,
});
