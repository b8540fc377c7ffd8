import { scanStatusSchema, sha256Schema, sizeBytesSchema } from '@platform/files';
import type { FromSchema } from '@platform/http';

export const attachmentScanStatusSchema = {
  ...scanStatusSchema,
  description:
    'Virus scan: `clean`; `infected` (quarantined: kept for investigation, never served, not counted in the checklist); ' +
    '`pending` (the scanner was unreachable; rescanned in the background, not served until clean); `not_scanned` (no scanner configured)',
} as const;

/**
 * The attachment entity, declared once: the claim file, the upload's answer, the adjuster kit and the
 * claimant's status each show these properties (or a subset), adding only what their view adds.
 */
export const attachmentProperties = {
  attachment_id: { type: 'string', format: 'uuid' },
  filename: { type: 'string' },
  content_type: { type: 'string' },
  size_bytes: sizeBytesSchema,
  sha256: sha256Schema,
  document_type: { type: 'string' },
  description: { type: ['string', 'null'] },
  received_at: { type: 'string', format: 'date-time' },
  scan_status: attachmentScanStatusSchema,
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
  properties: attachmentProperties,
} as const;

export type Attachment = FromSchema<typeof attachmentSchema>;
