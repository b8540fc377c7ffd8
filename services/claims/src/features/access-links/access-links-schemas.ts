import type { FromSchema } from '@platform/http';

/** Body of POST /api/claims/public/access-links: the claim number and either the email or the phone on the claim. */
export const accessLinkRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['claim_number'],
  // exactly one of email and phone beside claim_number
  minProperties: 2,
  maxProperties: 2,
  properties: {
    claim_number: {
      type: 'string',
      minLength: 1,
      maxLength: 40,
      description: 'As on the acknowledgement, e.g. CLM-2026-000123 (case does not matter)',
    },
    email: { type: 'string', format: 'email', maxLength: 320, description: 'The email given on the claim (case does not matter)' },
    phone: {
      type: 'string',
      minLength: 1,
      maxLength: 40,
      description: 'The phone given on the claim; spaces, dots, dashes, brackets and a 00 prefix are ignored',
    },
  },
} as const;

export type AccessLinkRequest = FromSchema<typeof accessLinkRequestSchema>;

/** The one answer to every accepted request, whether or not anything matched. */
export const accessLinkAcceptedSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['message'],
  properties: { message: { type: 'string' } },
} as const;

export const ACCESS_LINK_ACCEPTED = {
  message: 'If these details match a claim, a new link to it is on its way to the email or phone on file. It replaces every earlier link.',
} as const;
