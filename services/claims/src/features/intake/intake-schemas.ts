import type { FromSchema } from '@platform/http';
import { NON_BLANK_TEXT_PATTERN, lossLocationSchema, requiredDocumentsSchema, type LossLocation } from '../../shared/claim-schemas';
import { CHANNELS, LOSS_TYPES, type Channel, type LossType } from '../../shared/claim-vocabulary';
import { LANGUAGE_TAG_PATTERN } from '../../shared/language-tag';
import { statusUpdateSchema } from '../../shared/status-update';

export interface IntakeRequest {
  policy_number: string;
  claimant: { name: string; email?: string; phone?: string };
  loss: { date: string; type: LossType; description: string; location?: LossLocation };
  injuries?: boolean;
  police_report_number?: string;
  estimated_amount?: { amount: string; currency: string };
  preferred_channel?: Channel;
  language?: string;
  time_zone?: string;
}

/**
 * First notice of loss. Checked after the schema (`checkIntakeFacts` in intake-service.ts): `loss.date`
 * is not in the future, the claimant has an email or a phone, `language` is a valid BCP 47 tag, and `preferred_channel` (default `email`, or `sms` when only a phone is given)
 * has its contact: `email` needs `claimant.email`, `sms` needs `claimant.phone`.
 */
export const intakeRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['policy_number', 'claimant', 'loss'],
  properties: {
    policy_number: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9][A-Za-z0-9._/-]*$' },
    claimant: {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 200, pattern: NON_BLANK_TEXT_PATTERN },
        email: { type: 'string', format: 'email', maxLength: 320 },
        phone: { type: 'string', pattern: '^\\+[1-9][0-9]{6,14}$', description: 'E.164' },
      },
    },
    loss: {
      type: 'object',
      additionalProperties: false,
      required: ['date', 'type', 'description'],
      properties: {
        date: {
          type: 'string',
          format: 'date',
          pattern: '^(?!0000-)',
          description: 'A real calendar date (year 0001 or later), not in the future',
        },
        type: { enum: [...LOSS_TYPES] },
        description: { type: 'string', minLength: 1, maxLength: 5000, pattern: NON_BLANK_TEXT_PATTERN },
        location: lossLocationSchema,
      },
    },
    injuries: { type: 'boolean' },
    police_report_number: { type: 'string', minLength: 1, maxLength: 64, pattern: NON_BLANK_TEXT_PATTERN },
    estimated_amount: {
      type: 'object',
      additionalProperties: false,
      required: ['amount', 'currency'],
      properties: {
        amount: {
          type: 'string',
          pattern: '^(0|[1-9][0-9]{0,14})(\\.[0-9]{1,3})?$',
          description: 'A non-negative decimal string, never a float',
        },
        currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217' },
      },
    },
    preferred_channel: { enum: [...CHANNELS], description: 'Default: `email` when claimant.email is given, otherwise `sms`' },
    language: { type: 'string', maxLength: 35, pattern: LANGUAGE_TAG_PATTERN, default: 'en', description: 'BCP 47' },
    time_zone: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      description: 'IANA time zone ("Europe/Madrid") the claim\'s promised dates count in; UTC when omitted',
    },
  },
} as const;

export const intakeResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['claim_id', 'claim_number', 'access_token', 'stage', 'received_at', 'required_documents', 'status'],
  properties: {
    claim_id: { type: 'string', format: 'uuid' },
    claim_number: { type: 'string', pattern: '^CLM-[0-9]{4}-[0-9]{6,}$' },
    access_token: { type: 'string', description: 'Shown once; the claimant bearer token for status and attachments' },
    stage: { const: 'intake' },
    received_at: { type: 'string', format: 'date-time' },
    required_documents: requiredDocumentsSchema,
    status: statusUpdateSchema,
  },
} as const;

/** 201 body of intake (and the stored answer an Idempotency-Key replays). */
export type IntakeResponseBody = FromSchema<typeof intakeResponseSchema>;

/**
 * An Idempotency-Key must carry at least 128 random bits, so that nobody can guess another claimant's key
 * (and be answered their access token) or take it first (and make their request fail): a UUID, or 22–255
 * base64url characters — 32 at least when they are all hex digits (22 hex digits are only 88 bits).
 */
export const IDEMPOTENCY_KEY_PATTERN =
  /^(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|(?![0-9a-fA-F]{22,31}$)[A-Za-z0-9_-]{22,255})$/;
export const IDEMPOTENCY_KEY_RULE =
  'a random UUID (version 1–8, RFC 9562 variant), or 22–255 base64url characters (32 at least if all are hex digits), not a repetitive one';

const UUID_VERSION_AND_VARIANT = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/**
 * The format alone lets through keys anyone would pick: the nil UUID, `1111…`, 43 × `A`. Random keys of the
 * accepted lengths use many distinct characters (a random UUID about 14 of 16 hex digits, 22 random base64url
 * characters about 19); fewer than 8 is a key chosen by hand, refused like one too short.
 */
const MIN_DISTINCT_CHARACTERS = 8;

/** Whether an Idempotency-Key may be used: its format (IDEMPOTENCY_KEY_PATTERN) and a key that looks random. */
export function isAcceptableIdempotencyKey(key: string): boolean {
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) return false;
  const isUuid = key.length === 36 && key[8] === '-';
  if (isUuid && !UUID_VERSION_AND_VARIANT.test(key)) return false;
  return new Set(key.replace(/-/g, '').toLowerCase()).size >= MIN_DISTINCT_CHARACTERS;
}
