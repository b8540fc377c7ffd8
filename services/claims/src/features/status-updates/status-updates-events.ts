import type { FromSchema } from '@platform/http';
import { eventKind, eventSchemaId } from '@platform/messaging';
import { claimEventProperties } from '../../shared/claim-change';
import { CHANNELS, CLAIM_STAGES, CLOSING_REASONS } from '../../shared/claim-vocabulary';

/** `data` of `claim.status_updated`: the facts of a status update, not its text. */
export const claimStatusUpdatedData = {
  $id: eventSchemaId('claim.status_updated', 1),
  type: 'object',
  additionalProperties: false,
  required: [
    'claim_id',
    'actor',
    'update_id',
    'previous_stage',
    'stage',
    'transition',
    'channel',
    'adequacy_score',
    'adequacy_missing',
    'expected_next_update_by',
  ],
  properties: {
    ...claimEventProperties,
    update_id: { type: 'string', format: 'uuid' },
    previous_stage: { enum: [...CLAIM_STAGES] },
    stage: { enum: [...CLAIM_STAGES] },
    transition: { enum: ['progress', 'advance', 'reopen'], description: '`progress`: the same stage again' },
    channel: { enum: [...CHANNELS] },
    adequacy_score: { type: 'number', minimum: 0, maximum: 1 },
    adequacy_missing: { type: 'array', items: { type: 'string' } },
    expected_next_update_by: { type: ['string', 'null'], format: 'date' },
    closing_reason: { enum: [...CLOSING_REASONS, null], description: 'Why the claim closed, on an update into `closed`; null otherwise' },
  },
} as const;

export const claimStatusUpdated = eventKind<FromSchema<typeof claimStatusUpdatedData>>({
  type: 'claim.status_updated',
  summary: 'An adjuster sent the claimant a status update (a progress update, or a move to another stage)',
  schema: claimStatusUpdatedData,
});
