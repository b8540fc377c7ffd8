import { attachmentProperties } from '../../shared/attachment';
import { DOCUMENT_TYPES } from '../intake';
import { ACCEPTED_CONTENT_TYPES, MAX_FILES } from './multipart-upload';

/** The upload answers the stored attachment without its description (which the claimant just sent). */
const { description: _description, ...uploadedProperties } = attachmentProperties;

const attachmentResultSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'attachment_id',
    'filename',
    'content_type',
    'size_bytes',
    'sha256',
    'document_type',
    'received_at',
    'scan_status',
    'scan_notice',
    'duplicate',
  ],
  properties: {
    ...uploadedProperties,
    filename: { ...attachmentProperties.filename, description: 'For display only' },
    content_type: { enum: ACCEPTED_CONTENT_TYPES },
    scan_notice: {
      type: ['string', 'null'],
      description: 'Plain words for the claimant when the virus scan holds the file back (quarantined or still pending)',
    },
    duplicate: { type: 'boolean', description: 'True when the claim already had these bytes; the stored attachment is returned' },
  },
} as const;

export const attachmentsResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['attachments'],
  properties: { attachments: { type: 'array', items: attachmentResultSchema } },
} as const;

/** The multipart body of POST /api/claims/public/claims/{id}/attachments, as the OpenAPI document describes it. */
export const uploadSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['file'],
  properties: {
    file: { type: 'array', minItems: 1, maxItems: MAX_FILES, items: { type: 'string', contentMediaType: 'application/octet-stream' } },
    document_type: { enum: DOCUMENT_TYPES, description: "One of the claim's checklist types, or `other` (the default)" },
    description: { type: 'string', maxLength: 1000 },
  },
} as const;
