import type { FromSchema } from '@platform/http';
import { eventKind, eventSchemaId } from '@platform/messaging';
import { scanStatusSchema, sha256Schema, sizeBytesSchema } from '@platform/files';
import { claimEventProperties } from '../../shared/claim-change';

const fileProperties = {
  claim_number: { type: 'string', pattern: '^CLM-[0-9]{4}-[0-9]{6,}$' },
  attachment_id: { type: 'string', format: 'uuid' },
  sha256: sha256Schema,
  scan_status: scanStatusSchema,
  scan_signature: { type: ['string', 'null'], description: 'What the virus scanner found in an infected file' },
} as const;

/** `data` of `claim.attachment_added`: a new (not duplicate) upload of the claimant. */
export const claimAttachmentAddedData = {
  $id: eventSchemaId('claim.attachment_added', 1),
  type: 'object',
  additionalProperties: false,
  required: [
    'claim_id',
    'actor',
    'claim_number',
    'attachment_id',
    'sha256',
    'size_bytes',
    'content_type',
    'document_type',
    'received_at',
    'scan_status',
    'scan_signature',
  ],
  properties: {
    ...claimEventProperties,
    ...fileProperties,
    size_bytes: sizeBytesSchema,
    content_type: { type: 'string' },
    document_type: { type: 'string' },
    received_at: { type: 'string', format: 'date-time' },
  },
} as const;

/** `data` of `claim.attachment_scanned`: the virus scan of an attachment stored `pending` has decided. */
export const claimAttachmentScannedData = {
  $id: eventSchemaId('claim.attachment_scanned', 1),
  type: 'object',
  additionalProperties: false,
  required: ['claim_id', 'actor', 'claim_number', 'attachment_id', 'sha256', 'scan_status', 'scan_signature'],
  properties: { ...claimEventProperties, ...fileProperties },
} as const;

export const claimAttachmentAdded = eventKind<FromSchema<typeof claimAttachmentAddedData>>({
  type: 'claim.attachment_added',
  summary: 'The claimant uploaded an attachment (a duplicate upload publishes nothing)',
  schema: claimAttachmentAddedData,
});

export const claimAttachmentScanned = eventKind<FromSchema<typeof claimAttachmentScannedData>>({
  type: 'claim.attachment_scanned',
  summary: 'A pending attachment was scanned for viruses once the scanner was back',
  schema: claimAttachmentScannedData,
});
