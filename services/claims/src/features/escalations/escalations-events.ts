import type { FromSchema } from '@platform/http';
import { eventKind, eventSchemaId } from '@platform/messaging';
import { claimEventProperties } from '../../shared/claim-change';
import { CLAIM_STAGES } from '../../shared/claim-vocabulary';
import { QUEUES, raisedGatesSchema } from '../triage-policy';

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
    gates: raisedGatesSchema,
    stage: { enum: [...CLAIM_STAGES] },
  },
} as const;

export const claimEscalationDecided = eventKind<FromSchema<typeof claimEscalationDecidedData>>({
  type: 'claim.escalation_decided',
  summary: 'A human accepted or overrode the queue a gated triage proposed',
  schema: claimEscalationDecidedData,
});
