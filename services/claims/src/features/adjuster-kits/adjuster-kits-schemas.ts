import type { FromSchema } from '@platform/http';
import { attachmentProperties, attachmentScanStatusSchema } from '../../shared/attachment';
import { claimSchema } from '../../shared/claim-schemas';
import { timelineEntrySchema } from '../../shared/timeline-entry';
import { escalationSchema } from '../escalations';
import { triageResultSchema } from '../triage';

const nullable = <const S extends object>(schema: S) => ({ oneOf: [{ type: 'null' }, schema] }) as const;

export const kitAttachmentSchema = {
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
    'download_url',
  ],
  properties: {
    ...attachmentProperties,
    scan_status: {
      ...attachmentScanStatusSchema,
      description:
        'The virus scan status when the kit was generated (absent in kits generated before scanning); the download answers 423 unless the file is clean or not_scanned',
    },
    download_url: { type: 'string', description: 'GET it with claims:read to stream the stored bytes' },
  },
} as const;

/** 201 body of generate-adjuster-kit and 200 body of GET …/adjuster-kits/{kit_id}. */
export const adjusterKitSchema = {
  type: 'object',
  additionalProperties: false,
  description: '`sha256` is the SHA-256 (hex) of the RFC 8785 canonical JSON of this object without `sha256`.',
  required: [
    'kit_id',
    'claim_id',
    'generated_at',
    'generated_by',
    'draft',
    'claim',
    'triage',
    'escalation',
    'timeline',
    'attachments',
    'documents_checklist',
    'suggested_next_steps',
    'sha256',
  ],
  properties: {
    kit_id: { type: 'string', format: 'uuid' },
    claim_id: { type: 'string', format: 'uuid' },
    generated_at: { type: 'string', format: 'date-time' },
    generated_by: { type: 'string' },
    draft: { const: true },
    claim: claimSchema,
    triage: nullable(triageResultSchema),
    escalation: nullable(escalationSchema),
    timeline: { type: 'array', items: timelineEntrySchema },
    attachments: { type: 'array', items: kitAttachmentSchema },
    documents_checklist: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['type', 'received', 'attachment_ids'],
        properties: {
          type: { type: 'string' },
          received: { type: 'boolean' },
          attachment_ids: { type: 'array', items: { type: 'string', format: 'uuid' } },
        },
      },
    },
    suggested_next_steps: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['step', 'reason', 'draft'],
        properties: { step: { type: 'string' }, reason: { type: 'string' }, draft: { const: true } },
      },
    },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  },
} as const;

/** The kit: the snapshot and the SHA-256 of its RFC 8785 canonical JSON (everything but `sha256`). */
export type AdjusterKit = FromSchema<typeof adjusterKitSchema>;
export type AdjusterKitSnapshot = Omit<AdjusterKit, 'sha256'>;
