import type { FromSchema } from '@platform/http';
import { eventKind, eventSchemaId } from '@platform/messaging';
import { claimEventProperties } from '../../shared/claim-change';
import { CLAIM_STAGES } from '../../shared/claim-vocabulary';

/** `data` of `claim.adjuster_kit_generated`. */
export const claimAdjusterKitGeneratedData = {
  $id: eventSchemaId('claim.adjuster_kit_generated', 1),
  type: 'object',
  additionalProperties: false,
  required: ['claim_id', 'actor', 'kit_id', 'sha256', 'triage_id', 'attachments', 'stage'],
  properties: {
    ...claimEventProperties,
    kit_id: { type: 'string', format: 'uuid' },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'Of the kit snapshot as canonical JSON' },
    triage_id: { type: ['string', 'null'], format: 'uuid', description: 'The latest triage the kit includes, if any' },
    attachments: { type: 'integer', minimum: 0, description: 'How many attachments the kit lists' },
    stage: { enum: [...CLAIM_STAGES] },
  },
} as const;

export const claimAdjusterKitGenerated = eventKind<FromSchema<typeof claimAdjusterKitGeneratedData>>({
  type: 'claim.adjuster_kit_generated',
  summary: 'An adjuster kit (a signed snapshot of the claim for the adjuster) was generated',
  schema: claimAdjusterKitGeneratedData,
});
