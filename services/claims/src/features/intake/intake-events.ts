import type { FromSchema } from '@platform/http';
import { eventKind, eventSchemaId } from '@platform/messaging';
import { claimEventProperties } from '../../shared/claim-change';
import { CHANNELS, LOSS_TYPES } from '../../shared/claim-vocabulary';

/** `data` of `claim.created`: the facts of a first notice of loss, none of the claimant's personal data. */
export const claimCreatedData = {
  $id: eventSchemaId('claim.created', 1),
  type: 'object',
  additionalProperties: false,
  required: [
    'claim_id',
    'actor',
    'claim_number',
    'stage',
    'loss_type',
    'loss_date',
    'injuries',
    'police_report',
    'estimated_amount',
    'preferred_channel',
    'language',
    'required_documents',
    'acknowledgement_update_id',
    'received_at',
  ],
  properties: {
    ...claimEventProperties,
    claim_number: { type: 'string', pattern: '^CLM-[0-9]{4}-[0-9]{6,}$' },
    stage: { const: 'intake' },
    loss_type: { enum: [...LOSS_TYPES] },
    loss_date: { type: 'string', format: 'date' },
    injuries: { type: ['boolean', 'null'], description: 'null when the claimant did not say' },
    police_report: { type: 'boolean', description: 'Whether a police report number was given (the number itself is not in the event)' },
    estimated_amount: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['amount', 'currency'],
      properties: { amount: { type: 'string', description: 'A decimal string' }, currency: { type: 'string', pattern: '^[A-Z]{3}$' } },
    },
    preferred_channel: { enum: [...CHANNELS] },
    language: { type: 'string', description: 'BCP 47' },
    required_documents: { type: 'array', items: { type: 'string' }, description: 'The document types the claim needs' },
    acknowledgement_update_id: { type: 'string', format: 'uuid', description: 'The status update that acknowledged the claim' },
    received_at: { type: 'string', format: 'date-time' },
  },
} as const;

export const claimCreated = eventKind<FromSchema<typeof claimCreatedData>>({
  type: 'claim.created',
  summary: 'A claim was filed (first notice of loss)',
  schema: claimCreatedData,
});
