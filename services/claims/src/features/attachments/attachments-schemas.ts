import type { FromSchema } from '@platform/http';
import { SCAN_STATUSES } from '@platform/runtime';
import { DOCUMENT_TYPES } from '../intake/required-documents';
import { ACCEPTED_CONTENT_TYPES, MAX_FILES } from './multipart-upload';

export const attachmentScanStatusSchema = {
  enum: [...SCAN_STATUSES],
  description:
    'Virus scan: `clean`; `infected` (quarantined: kept for investigation, never served, not counted in the checklist); ' +
    '`pending` (the scanner was unreachable; rescanned in the background, not served until clean); `not_scanned` (no scanner configured)',
} as const;

/** An attachment as the claim file lists it (and the claimant's answers build on). */
export const attachmentSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'attachment_id',
    'filename',
    'content_type',
    'size_bytes',
    'sha256',
    'document_type',
    'description',
    'received_at',
    'scan_status',
  ],
  properties: {
    attachment_id: { type: 'string', format: 'uuid' },
    filename: { type: 'string' },
    content_type: { type: 'string' },
    size_bytes: { type: 'integer' },
    sha256: { type: 'string' },
    document_type: { type: 'string' },
    description: { type: ['string', 'null'] },
    received_at: { type: 'string', format: 'date-time' },
    scan_status: attachmentScanStatusSchema,
  },
} as const;

export type Attachment = FromSchema<typeof attachmentSchema>;

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
    attachment_id: { type: 'string', format: 'uuid' },
    filename: { type: 'string', description: 'For display only' },
    content_type: { enum: ACCEPTED_CONTENT_TYPES },
    size_bytes: { type: 'integer', minimum: 0 },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    document_type: { type: 'string' },
    received_at: { type: 'string', format: 'date-time' },
    scan_status: attachmentScanStatusSchema,
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
