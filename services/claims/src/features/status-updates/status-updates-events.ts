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
  },
} as const;

export const claimStatusUpdated = eventKind<FromSchema<typeof claimStatusUpdatedData>>({
  type: 'claim.status_updated',
  summary: 'An adjuster sent the claimant a status update (a progress update, or a move to another stage)',
  schema: claimStatusUpdatedData,
});

/** What every event of a claim closing carries (`claim.closed`, `claim.withdrawn`), `closing_reason` aside. */
export const claimClosingEventProperties = {
  ...claimEventProperties,
  previous_stage: { enum: [...CLAIM_STAGES] },
  stage: { const: 'closed' },
  update_id: { type: 'string', format: 'uuid', description: 'The status update into `closed` that tells the claimant' },
} as const;

/** `data` of `claim.closed`: a claims:decide caller closed the claim (POST …/closing), and why. */
export const claimClosedData = {
  $id: eventSchemaId('claim.closed', 1),
  type: 'object',
  additionalProperties: false,
  required: ['claim_id', 'actor', 'previous_stage', 'stage', 'closing_reason', 'update_id'],
  properties: { ...claimClosingEventProperties, closing_reason: { enum: [...CLOSING_REASONS] } },
} as const;

export const claimClosed = eventKind<FromSchema<typeof claimClosedData>>({
  type: 'claim.closed',
  summary:
    'A claims:decide caller closed the claim with its reason (published with the `claim.status_updated` of the update into `closed`; the rationale stays on the internal timeline)',
  schema: claimClosedData,
});
