import { attachmentScanStatusSchema } from '../attachments/attachments-schemas';
import { requiredDocumentsSchema } from '../claims/claims-schemas';
import { statusUpdateSchema } from '../status-updates/status-updates-schemas';
import { CLAIM_STAGES } from '../../shared/claim-vocabulary';

/**
 * What a claimant may see of their claim, and nothing more: never triage, queue, escalations or the
 * internal timeline. `latest_update` is the newest status update on any channel.
 */
export const claimantStatusSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['claim_id', 'claim_number', 'stage', 'received_at', 'required_documents', 'attachments', 'latest_update'],
  properties: {
    claim_id: { type: 'string', format: 'uuid' },
    claim_number: { type: 'string' },
    stage: { enum: [...CLAIM_STAGES] },
    received_at: { type: 'string', format: 'date-time' },
    required_documents: requiredDocumentsSchema,
    attachments: {
      type: 'array',
      description: 'The files the claimant sent, oldest first, with what the virus scan says about each',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['attachment_id', 'filename', 'document_type', 'received_at', 'scan_status', 'scan_notice'],
        properties: {
          attachment_id: { type: 'string', format: 'uuid' },
          filename: { type: 'string' },
          document_type: { type: 'string' },
          received_at: { type: 'string', format: 'date-time' },
          scan_status: attachmentScanStatusSchema,
          scan_notice: { type: ['string', 'null'], description: 'Plain words when the file is held back (quarantined or still being checked)' },
        },
      },
    },
    latest_update: { oneOf: [{ type: 'null' }, statusUpdateSchema] },
  },
} as const;
