import type { FromSchema } from '@platform/http';
import { eventKind, eventSchemaId } from '@platform/messaging';
import { claimEventProperties } from '../../shared/claim-change';
import { LEGAL_BASES } from './erasure-schemas';

/**
 * `data` of `claim.claimant_erased`, one per claim of the claimant: identifiers and the legal basis only,
 * never a name, contact or the reason's words.
 */
export const claimClaimantErasedData = {
  $id: eventSchemaId('claim.claimant_erased', 1),
  type: 'object',
  additionalProperties: false,
  required: ['claim_id', 'actor', 'claimant_id', 'erasure_id', 'claim_ids', 'legal_basis'],
  properties: {
    ...claimEventProperties,
    claimant_id: { type: 'string', format: 'uuid' },
    erasure_id: { type: 'string', format: 'uuid' },
    claim_ids: { type: 'array', items: { type: 'string', format: 'uuid' }, description: 'Every claim of the claimant erased together' },
    legal_basis: { enum: [...LEGAL_BASES] },
  },
} as const;

export const claimClaimantErased = eventKind<FromSchema<typeof claimClaimantErasedData>>({
  type: 'claim.claimant_erased',
  summary: "The claim's claimant was erased: their data key and files destroyed, the claim's personal fields a tombstone",
  schema: claimClaimantErasedData,
});
