import type { FromSchema } from '@platform/http';
import { claimantPaymentSchema } from '../financials';
import { attachmentProperties } from '../../shared/attachment';
import { requiredDocumentsSchema } from '../../shared/claim-schemas';
import { statusUpdateSchema } from '../../shared/status-update';
import { CLAIM_STAGES, CLOSING_REASONS } from '../../shared/claim-vocabulary';

/** Query of GET /api/claims/public/claims/{id}/status: the page of the history; every other parameter is a 400. */
export const claimantStatusQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 25, description: 'Status updates per page of `history`' },
    cursor: { type: 'string', minLength: 1, maxLength: 200, description: '`history.next_cursor` of the previous page' },
  },
} as const;

export type ClaimantStatusQuery = FromSchema<typeof claimantStatusQuerySchema>;

/**
 * What a claimant may see of their claim, and nothing more: never triage, queue, escalations, the
 * internal timeline or who did what. `latest_update` is the newest status update on any channel;
 * `history` pages through every update sent, newest first.
 */
/** The claimant's view of their files: never where they are stored (the content address) nor the description. */
const { sha256: _sha256, description: _description, ...claimantAttachmentProperties } = attachmentProperties;

export const claimantStatusSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'claim_id',
    'claim_number',
    'stage',
    'stages_passed',
    'closing_reason',
    'received_at',
    'contact_name',
    'required_documents',
    'attachments',
    'latest_update',
    'history',
    'payments',
  ],
  properties: {
    claim_id: { type: 'string', format: 'uuid' },
    claim_number: { type: 'string' },
    stage: { enum: [...CLAIM_STAGES] },
    stages_passed: {
      type: 'array',
      items: { enum: [...CLAIM_STAGES] },
      description:
        'The stages the claim has actually been in before its current one, in the order it first entered them (intake first): ' +
        'a stage skipped, e.g. by a withdrawal at intake, is not listed',
    },
    closing_reason: {
      oneOf: [{ type: 'null' }, { enum: [...CLOSING_REASONS] }],
      description: 'Why a closed claim closed (`paid`, `denied`, `withdrawn`, `duplicate`); null while the claim is open',
    },
    received_at: { type: 'string', format: 'date-time' },
    contact_name: {
      type: 'string',
      description:
        "Whom the claimant deals with: the adjuster the claim is assigned to, else the claims team's name (`CLAIMS_CONTACT_NAME`). " +
        "A StatusUpdate's `contact` holds only `phone` and `email`",
    },
    required_documents: requiredDocumentsSchema,
    attachments: {
      type: 'array',
      description: 'The files the claimant sent, oldest first, with what the virus scan says about each (never where they are stored)',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['attachment_id', 'filename', 'content_type', 'size_bytes', 'document_type', 'received_at', 'scan_status', 'scan_notice'],
        properties: {
          ...claimantAttachmentProperties,
          filename: { ...attachmentProperties.filename, description: 'As sent, for display only' },
          content_type: { ...attachmentProperties.content_type, description: 'Detected from the bytes' },
          scan_notice: {
            type: ['string', 'null'],
            description: 'Plain words when the file is held back (quarantined or still being checked)',
          },
        },
      },
    },
    latest_update: { oneOf: [{ type: 'null' }, statusUpdateSchema] },
    payments: {
      type: 'array',
      items: claimantPaymentSchema,
      description: 'What was paid to the claimant, newest first: amount, day and method (never reserves, nor payments to others)',
    },
    history: {
      type: 'object',
      additionalProperties: false,
      required: ['items', 'next_cursor'],
      properties: {
        items: {
          type: 'array',
          description: 'Every status update sent for the claim, newest first',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['update_id', 'sent_at', 'language_fallback_from', 'update'],
            properties: {
              update_id: { type: 'string', format: 'uuid' },
              sent_at: { type: 'string', format: 'date-time' },
              language_fallback_from: {
                type: ['string', 'null'],
                description: "The claim's language when this generated message is in English because there is no text in that language yet",
              },
              update: statusUpdateSchema,
            },
          },
        },
        next_cursor: { type: ['string', 'null'], description: 'Pass as `cursor` for the next (older) page; null on the last page' },
      },
    },
  },
} as const;

export type ClaimantStatus = FromSchema<typeof claimantStatusSchema>;
