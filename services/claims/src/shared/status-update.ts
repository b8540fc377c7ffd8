import type { FromSchema } from '@platform/http';
import { NON_BLANK_TEXT_PATTERN } from './claim-schemas';
import { CHANNELS, CLAIM_STAGES } from './claim-vocabulary';

const E164_PATTERN = '^\\+[1-9][0-9]{6,14}$';
/**
 * https, or http for a link on the platform's own PUBLIC_BASE_URL origin (which production requires to be https):
 * the schema admits both schemes and `checkLinks` refuses an http link on any other origin.
 */
export const LINK_URL_PATTERN = '^https?://[^\\s]+$';

export const ctaRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['label', 'url'],
  properties: {
    label: { type: 'string', minLength: 1, maxLength: 200, pattern: NON_BLANK_TEXT_PATTERN },
    url: { type: 'string', format: 'uri', pattern: LINK_URL_PATTERN, maxLength: 2000 },
  },
} as const;

export const contactRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['phone', 'email'],
  properties: {
    phone: { type: 'string', pattern: E164_PATTERN },
    email: { type: 'string', format: 'email', maxLength: 320 },
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
/**
 * A status_updates row (`alias`) as the thirteen fields of a StatusUpdate, built as JSON by PostgreSQL:
 * the same values the store's reads give (the date as `YYYY-MM-DD`, the score as a number, the contact as
 * its `phone` and `email` only, whatever an older row holds).
 */
export const statusUpdateJsonSql = (alias: string) => `json_build_object(
  'claim_id', ${alias}.claim_id, 'channel', ${alias}.channel, 'stage', ${alias}.stage, 'what_happened', ${alias}.what_happened,
  'what_happens_next', ${alias}.what_happens_next, 'what_we_need_from_you', ${alias}.what_we_need_from_you,
  'expected_next_update_by', to_char(${alias}.expected_next_update_by, 'YYYY-MM-DD'), 'cta', ${alias}.cta, 'contact', CASE WHEN jsonb_typeof(${alias}.contact) = 'object'
    THEN jsonb_build_object('phone', ${alias}.contact->'phone', 'email', ${alias}.contact->'email') END,
  'portal_url', ${alias}.portal_url, 'language', ${alias}.language, 'adequacy_score', ${alias}.adequacy_score,
  'adequacy_missing', ${alias}.adequacy_missing)`;
