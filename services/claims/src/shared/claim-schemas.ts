import type { FromSchema } from '@platform/http';
import { CHANNELS, CLAIM_STAGES, CLOSING_REASONS, LOSS_TYPES } from './claim-vocabulary';

// JSON Schemas (2020-12) of the claim as the claims core answers it (the claim store's types come from them); request schemas live with their feature.

/** Text with something besides white space, and no NUL character (PostgreSQL text cannot hold one). */
export const NON_BLANK_TEXT_PATTERN = '^[^\\u0000]*[^\\s\\u0000][^\\u0000]*$';

export const requiredDocumentsSchema = {
  type: 'array',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['type', 'received'],
    properties: { type: { type: 'string' }, received: { type: 'boolean' } },
  },
} as const;

const nullable = <const S extends object>(schema: S) => ({ oneOf: [{ type: 'null' }, schema] }) as const;
const timestamp = { type: 'string', format: 'date-time' } as const;

export const lossLocationSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    address_line: { type: 'string', minLength: 1, maxLength: 200, pattern: NON_BLANK_TEXT_PATTERN },
    city: { type: 'string', minLength: 1, maxLength: 100, pattern: NON_BLANK_TEXT_PATTERN },
    postal_code: { type: 'string', minLength: 1, maxLength: 20, pattern: NON_BLANK_TEXT_PATTERN },
    country: { type: 'string', pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' },
  },
} as const;

/** The whole claim as internal callers (claims:read) see it: personal data included, token hash never. */
export const claimSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'claim_id',
    'claim_number',
    'policy_number',
    'claimant_id',
    'claimant',
    'loss',
    'injuries',
    'police_report_number',
    'estimated_amount',
    'preferred_channel',
    'language',
    'time_zone',
    'stage',
    'queue',
    'assignee',
    'version',
    'closing',
    'required_documents',
    'received_at',
    'acknowledge_by',
    'acknowledged_at',
    'first_contact_due',
    'first_contact_made_at',
    'next_update_due',
    'created_at',
    'updated_at',
  ],
  properties: {
    claim_id: { type: 'string', format: 'uuid' },
    claim_number: { type: 'string', pattern: '^CLM-[0-9]{4}-[0-9]{6,}$' },
    policy_number: { type: 'string' },
    claimant_id: {
      type: 'string',
      format: 'uuid',
      description:
        'The person who filed the claim: the same for their later claims with the same email (else phone), matched by a keyed blind index. Their personal fields are sealed at rest with their own data key',
    },
    claimant: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'email', 'phone'],
      properties: { name: { type: 'string' }, email: { type: ['string', 'null'] }, phone: { type: ['string', 'null'] } },
    },
    loss: {
      type: 'object',
      additionalProperties: false,
      required: ['date', 'type', 'description', 'location'],
      properties: {
        date: { type: 'string', format: 'date' },
        type: { enum: [...LOSS_TYPES] },
        description: { type: 'string' },
        location: nullable(lossLocationSchema),
      },
    },
    injuries: { type: ['boolean', 'null'] },
    police_report_number: { type: ['string', 'null'] },
    estimated_amount: nullable({
      type: 'object',
      additionalProperties: false,
      required: ['amount', 'currency'],
      properties: { amount: { type: 'string' }, currency: { type: 'string' } },
    }),
    preferred_channel: { enum: [...CHANNELS] },
    language: { type: 'string' },
    time_zone: { type: ['string', 'null'], description: "IANA time zone the claim's promised dates count in; null counts in UTC" },
    stage: { enum: [...CLAIM_STAGES] },
    queue: { type: ['string', 'null'] },
    assignee: { type: ['string', 'null'], description: 'The JWT `sub` working the claim; null while unassigned' },
    version: {
      type: 'integer',
      minimum: 1,
      description: 'Bumped by every change; also the ETag. Send it as If-Match to change the assignee',
    },
    closing: nullable({
      type: 'object',
      additionalProperties: false,
      required: ['reason', 'rationale'],
      properties: { reason: { enum: [...CLOSING_REASONS] }, rationale: { type: ['string', 'null'] } },
    }),
    required_documents: requiredDocumentsSchema,
    received_at: timestamp,
    acknowledge_by: timestamp,
    acknowledged_at: nullable(timestamp),
    first_contact_due: timestamp,
    first_contact_made_at: {
      ...nullable(timestamp),
      description:
        'When the first contact with the claimant was made (a recorded contact or the first update a person sent); null while due',
    },
    next_update_due: nullable(timestamp),
    created_at: timestamp,
    updated_at: timestamp,
  },
} as const;

export type LossLocation = FromSchema<typeof lossLocationSchema>;
/** A claim as the service works with it (the internal view; never handed to a claimant whole). */
export type Claim = FromSchema<typeof claimSchema>;
