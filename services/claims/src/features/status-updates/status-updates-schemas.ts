import type { FromSchema } from '@platform/http';
import { NON_BLANK_TEXT_PATTERN } from '../../shared/claim-schemas';
import { CHANNELS, CLAIM_STAGES, CLOSING_REASONS } from '../../shared/claim-vocabulary';
import { LANGUAGE_TAG_PATTERN } from '../../shared/language-tag';
import { contactRequestSchema, ctaRequestSchema, LINK_URL_PATTERN, statusUpdateSchema } from '../../shared/status-update';

/**
 * Request body of POST /api/claims/claims/{id}/status-updates: the StatusUpdate's fields and no others.
 * `adequacy_score` and `adequacy_missing` are not accepted (additionalProperties: false makes sending them
 * a 400), nor is anything about closing (that is POST …/closing). Whether `expected_next_update_by` is
 * today or later is checked by `isTodayOrLater`, not by the schema.
 */
export const statusUpdateRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['channel', 'stage', 'what_happened', 'what_happens_next'],
  properties: {
    claim_id: { type: 'string', format: 'uuid' },
    channel: { enum: [...CHANNELS] },
    stage: { enum: [...CLAIM_STAGES] },
    what_happened: { type: 'string', minLength: 1, maxLength: 5000, pattern: NON_BLANK_TEXT_PATTERN },
    what_happens_next: { type: 'string', minLength: 1, maxLength: 5000, pattern: NON_BLANK_TEXT_PATTERN },
    what_we_need_from_you: { type: ['string', 'null'], minLength: 1, maxLength: 5000, pattern: NON_BLANK_TEXT_PATTERN },
    expected_next_update_by: { type: ['string', 'null'], format: 'date' },
    cta: { oneOf: [{ type: 'null' }, ctaRequestSchema] },
    contact: { oneOf: [{ type: 'null' }, contactRequestSchema] },
    portal_url: { type: ['string', 'null'], format: 'uri', pattern: LINK_URL_PATTERN, maxLength: 2000 },
    language: { type: ['string', 'null'], pattern: LANGUAGE_TAG_PATTERN, maxLength: 35 },
  },
} as const;

export type StatusUpdateRequest = FromSchema<typeof statusUpdateRequestSchema>;

/**
 * Request body of POST /api/claims/claims/{id}/closing: why the claim closes, and the ordinary StatusUpdate
 * into `closed` that tells the claimant (a `status_update` of another stage is a 400 at `/status_update/stage`).
 */
export const closingRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['reason', 'status_update'],
  properties: {
    reason: { enum: [...CLOSING_REASONS], description: 'Why the claim closes; none has to pass through settlement' },
    rationale: {
      type: 'string',
      minLength: 1,
      maxLength: 5000,
      pattern: NON_BLANK_TEXT_PATTERN,
      description:
        'The reasons for the decision, kept on the claim and its internal timeline (never sent to the claimant by the service); required for `denied`',
    },
    status_update: {
      ...statusUpdateRequestSchema,
      description: 'The StatusUpdate that tells the claimant, as POST …/status-updates takes it, with `stage: closed`',
      properties: { ...statusUpdateRequestSchema.properties, stage: { const: 'closed' } },
    },
  },
} as const;
export type ClosingRequest = FromSchema<typeof closingRequestSchema>;

/** Response of POST /api/claims/claims/{id}/closing: the claim's closing and the StatusUpdate stored with it. */
export const closingSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['claim_id', 'stage', 'reason', 'rationale', 'closed_at', 'update_id', 'status_update'],
  properties: {
    claim_id: { type: 'string', format: 'uuid' },
    stage: { const: 'closed' },
    reason: { enum: [...CLOSING_REASONS] },
    rationale: { type: ['string', 'null'] },
    closed_at: { type: 'string', format: 'date-time' },
    update_id: { type: 'string', format: 'uuid', description: 'The status update, at `Location`' },
    status_update: statusUpdateSchema,
  },
} as const;
export type Closing = FromSchema<typeof closingSchema>;
