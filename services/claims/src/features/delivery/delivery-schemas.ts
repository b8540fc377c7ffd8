import type { FromSchema } from '@platform/http';
import { CHANNELS } from '../../shared/claim-vocabulary';
import { DELIVERY_KINDS } from './delivery-store';

export const DELIVERY_STATUSES = ['queued', 'sent', 'failed', 'retrying'] as const;

const timestamp = { type: 'string', format: 'date-time' } as const;

/** One message sent (or to be sent) to the claimant for a claim, as GET …/deliveries lists it. */
export const claimDeliverySchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'delivery_id',
    'kind',
    'update_id',
    'channel',
    'status',
    'attempts',
    'last_error',
    'provider_message_id',
    'next_attempt_at',
    'created_at',
    'completed_at',
  ],
  properties: {
    delivery_id: { type: 'string', format: 'uuid' },
    kind: { enum: [...DELIVERY_KINDS], description: 'A status update (the acknowledgement included) or a new access link' },
    update_id: { type: ['string', 'null'], format: 'uuid', description: 'The status update the message carries; null for an access link' },
    channel: { enum: [...CHANNELS] },
    status: {
      enum: [...DELIVERY_STATUSES],
      description:
        '`queued` until the first attempt fails, `retrying` after a failed attempt while attempts remain, `sent` once handed to the provider (or served on the portal; or written to the log when no provider is configured, with no provider_message_id), `failed` after the last attempt',
    },
    attempts: { type: 'integer', minimum: 0 },
    last_error: { type: ['string', 'null'], description: 'Why the last attempt failed' },
    provider_message_id: { type: ['string', 'null'], description: 'The id the SMTP server (Message-ID) or SMS provider gave the message' },
    next_attempt_at: { type: ['string', 'null'], format: 'date-time', description: 'When the next attempt is due (queued or retrying)' },
    created_at: timestamp,
    completed_at: { type: ['string', 'null'], format: 'date-time' },
  },
} as const;

export const claimDeliveriesResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['items'],
  properties: { items: { type: 'array', items: claimDeliverySchema, description: 'Oldest first' } },
} as const;

export type ClaimDelivery = FromSchema<typeof claimDeliverySchema>;
export type ClaimDeliveries = FromSchema<typeof claimDeliveriesResponseSchema>;
