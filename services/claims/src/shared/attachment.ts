import type { FromSchema } from '@platform/http';
import { SCAN_STATUSES } from '@platform/files';

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
