import type { FromSchema } from '@platform/http';
import { NON_BLANK_TEXT_PATTERN } from '../../shared/claim-schemas';
import { CHANNELS, CLAIM_STAGES, CLOSING_REASONS } from '../../shared/claim-vocabulary';
import { LANGUAGE_TAG_PATTERN } from './language-tag';

const E164_PATTERN = '^\\+[1-9][0-9]{6,14}$';
/**
 * https, or http for a link on the platform's own PUBLIC_BASE_URL origin (which production requires to be https):
 * the schema admits both schemes and `checkLinks` refuses an http link on any other origin.
 */
const LINK_URL_PATTERN = '^https?://[^\\s]+$';

const ctaRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['label', 'url'],
  properties: {
    label: { type: 'string', minLength: 1, maxLength: 200, pattern: NON_BLANK_TEXT_PATTERN },
    url: { type: 'string', format: 'uri', pattern: LINK_URL_PATTERN, maxLength: 2000 },
  },
} as const;

const contactRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['phone', 'email'],
  properties: {
    phone: { type: 'string', pattern: E164_PATTERN },
    email: { type: 'string', format: 'email', maxLength: 320 },
  },
} as const;

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

/** The stored StatusUpdate as it is returned: all thirteen fields, and no others. */
export const statusUpdateSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'claim_id',
    'channel',
    'stage',
    'what_happened',
    'what_happens_next',
    'what_we_need_from_you',
    'expected_next_update_by',
    'cta',
    'contact',
    'portal_url',
    'language',
    'adequacy_score',
    'adequacy_missing',
  ],
  properties: {
    claim_id: { type: 'string', format: 'uuid' },
    channel: { enum: [...CHANNELS] },
    stage: { enum: [...CLAIM_STAGES] },
    what_happened: { type: 'string' },
    what_happens_next: { type: 'string' },
    what_we_need_from_you: { type: ['string', 'null'] },
    expected_next_update_by: { type: ['string', 'null'], format: 'date' },
    cta: {
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          additionalProperties: false,
          required: ['label', 'url'],
          properties: { label: { type: 'string' }, url: { type: 'string', format: 'uri' } },
        },
      ],
    },
    contact: {
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          additionalProperties: false,
          required: ['phone', 'email'],
          properties: { phone: { type: 'string' }, email: { type: 'string' } },
        },
      ],
    },
    portal_url: { type: ['string', 'null'], format: 'uri' },
    language: { type: ['string', 'null'] },
    adequacy_score: { type: 'number', minimum: 0, maximum: 1 },
    adequacy_missing: { type: 'array', items: { type: 'string' } },
  },
} as const;

/**
 * The StatusUpdate of the interface document: what a claimant is told, on which channel. Shared by the
 * intake acknowledgement and POST /api/claims/claims/{id}/status-updates.
 */
export type StatusUpdate = FromSchema<typeof statusUpdateSchema>;
export type StatusUpdateContact = NonNullable<StatusUpdate['contact']>;
/** What a caller sends: everything but the computed adequacy fields; `claim_id` may be omitted. */
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
