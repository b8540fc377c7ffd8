import type { FromSchema } from '@platform/http';
import { eventKind, eventSchemaId } from '@platform/messaging';
import { claimEventProperties } from '../../shared/claim-change';

const legalHoldEventData = (type: string) =>
  ({
    $id: eventSchemaId(type, 1),
    type: 'object',
    additionalProperties: false,
    required: ['claim_id', 'actor', 'hold_id'],
    properties: { ...claimEventProperties, hold_id: { type: 'string', format: 'uuid' } },
  }) as const;

/** `data` of `claim.legal_hold_placed`: the hold's id and who placed it; the reason stays in the claims service. */
export const claimLegalHoldPlacedData = legalHoldEventData('claim.legal_hold_placed');
/** `data` of `claim.legal_hold_released`: the hold's id and who released it; the reason stays in the claims service. */
export const claimLegalHoldReleasedData = legalHoldEventData('claim.legal_hold_released');

export const claimLegalHoldPlaced = eventKind<FromSchema<typeof claimLegalHoldPlacedData>>({
  type: 'claim.legal_hold_placed',
  summary: "A legal hold was placed on a claim: its claimant's personal data is not erased while it stands",
  schema: claimLegalHoldPlacedData,
});

export const claimLegalHoldReleased = eventKind<FromSchema<typeof claimLegalHoldReleasedData>>({
  type: 'claim.legal_hold_released',
  summary: 'A legal hold on a claim was released by a person (retention and erasure apply again)',
  schema: claimLegalHoldReleasedData,
});
