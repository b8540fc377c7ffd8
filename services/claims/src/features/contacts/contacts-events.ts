import type { FromSchema } from '@platform/http';
import { eventKind, eventSchemaId } from '@platform/messaging';
import { claimEventProperties } from '../../shared/claim-change';
import { CONTACT_CHANNELS } from './contacts-schemas';

/** `data` of `claim.contact_recorded`: facts only, never the note (which stays in the claims service). */
export const claimContactRecordedData = {
  $id: eventSchemaId('claim.contact_recorded', 1),
  type: 'object',
  additionalProperties: false,
  required: ['claim_id', 'actor', 'contact_id', 'channel', 'occurred_at', 'first_contact'],
  properties: {
    ...claimEventProperties,
    contact_id: { type: 'string', format: 'uuid' },
    channel: { enum: [...CONTACT_CHANNELS] },
    occurred_at: { type: 'string', format: 'date-time' },
    first_contact: { type: 'boolean', description: 'This contact met the first-contact deadline (none was made before)' },
  },
} as const;

export const claimContactRecorded = eventKind<FromSchema<typeof claimContactRecordedData>>({
  type: 'claim.contact_recorded',
  summary: 'An adjuster recorded a contact with the claimant (call, email, visit); the first one ends the first-contact deadline',
  schema: claimContactRecordedData,
});
