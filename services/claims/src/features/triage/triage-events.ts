import type { FromSchema } from '@platform/http';
import { eventKind, eventSchemaId } from '@platform/messaging';
import { claimEventProperties } from '../../shared/claim-change';
import { CLAIM_STAGES } from '../../shared/claim-vocabulary';
import { QUEUES, raisedGatesSchema } from '../triage-policy';

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
    gates: raisedGatesSchema,
    escalation_id: { type: ['string', 'null'], format: 'uuid' },
    stage: { enum: [...CLAIM_STAGES] },
  },
} as const;

export const claimTriaged = eventKind<FromSchema<typeof claimTriagedData>>({
  type: 'claim.triaged',
  summary: 'The triage policy scored the claim and routed it, or raised gates for a human to decide',
  schema: claimTriagedData,
});
