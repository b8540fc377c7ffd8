import type { FromSchema } from '@platform/http';
import { NON_BLANK_TEXT_PATTERN } from '../../shared/claim-schemas';

export const CONTACT_CHANNELS = ['call', 'email', 'visit'] as const;

/** Body of POST …/contacts. */
export const contactRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['channel'],
  properties: {
    channel: { enum: [...CONTACT_CHANNELS], description: 'How the adjuster reached the claimant' },
    occurred_at: {
      type: 'string',
      format: 'date-time',
      description: 'When the contact took place (default: now); not in the future, not before the claim was received',
    },
    note: {
      type: 'string',
      minLength: 1,
      maxLength: 2000,
      pattern: NON_BLANK_TEXT_PATTERN,
      description: 'Internal, at most 2,000 characters',
    },
  },
} as const;
export type ContactRequest = FromSchema<typeof contactRequestSchema>;

export const contactSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['contact_id', 'claim_id', 'channel', 'occurred_at', 'note', 'recorded_by', 'recorded_at'],
  properties: {
    contact_id: { type: 'string', format: 'uuid' },
    claim_id: { type: 'string', format: 'uuid' },
    channel: { enum: [...CONTACT_CHANNELS] },
    occurred_at: { type: 'string', format: 'date-time' },
    note: { type: ['string', 'null'] },
    recorded_by: { type: 'string', description: 'The JWT `sub` who recorded it' },
    recorded_at: { type: 'string', format: 'date-time' },
  },
} as const;
export type Contact = FromSchema<typeof contactSchema>;

export const contactsListSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['items'],
  properties: { items: { type: 'array', items: contactSchema, description: 'Latest first' } },
} as const;
