import type { FromSchema } from '@platform/http';
import { eventKind, eventSchemaId } from '@platform/messaging';
import { claimClosingEventProperties } from '../status-updates';

/** `data` of `claim.withdrawn`: the claimant withdrew the claim and it closed (reason `withdrawn`). */
export const claimWithdrawnData = {
  $id: eventSchemaId('claim.withdrawn', 1),
  type: 'object',
  additionalProperties: false,
  required: ['claim_id', 'actor', 'previous_stage', 'stage', 'closing_reason', 'update_id'],
  properties: { ...claimClosingEventProperties, closing_reason: { const: 'withdrawn' } },
} as const;

export const claimWithdrawn = eventKind<FromSchema<typeof claimWithdrawnData>>({
  type: 'claim.withdrawn',
  summary: 'The claimant withdrew their claim before settlement; it is closed with reason `withdrawn`',
  schema: claimWithdrawnData,
});
