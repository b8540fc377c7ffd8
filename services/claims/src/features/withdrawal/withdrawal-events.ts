import type { FromSchema } from '@platform/http';
import { eventKind, eventSchemaId } from '@platform/messaging';
import { claimEventProperties } from '../../shared/claim-change';
import { CLAIM_STAGES } from '../../shared/claim-vocabulary';

/** `data` of `claim.withdrawn`: the claimant withdrew the claim and it closed (reason `withdrawn`). */
export const claimWithdrawnData = {
  $id: eventSchemaId('claim.withdrawn', 1),
  type: 'object',
  additionalProperties: false,
  required: ['claim_id', 'actor', 'previous_stage', 'stage', 'closing_reason', 'update_id'],
  properties: {
    ...claimEventProperties,
    previous_stage: { enum: [...CLAIM_STAGES] },
    stage: { const: 'closed' },
    closing_reason: { const: 'withdrawn' },
    update_id: { type: 'string', format: 'uuid', description: 'The status update that tells the claimant' },
  },
} as const;

export const claimWithdrawn = eventKind<FromSchema<typeof claimWithdrawnData>>({
  type: 'claim.withdrawn',
  summary: 'The claimant withdrew their claim before settlement; it is closed with reason `withdrawn`',
  schema: claimWithdrawnData,
});
