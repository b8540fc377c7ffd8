import type { FromSchema } from '@platform/http';
import { eventKind, eventSchemaId } from '@platform/messaging';
import { claimEventProperties } from '../../shared/claim-change';
import { moneySchema } from './money';
import { COST_CATEGORIES, PAYEE_KINDS } from './financials-schemas';

/** Amounts, categories and ids only: never the payee's name, the memo or a rationale. */
const paymentFacts = {
  payment_id: { type: 'string', format: 'uuid' },
  cost_category: { enum: [...COST_CATEGORIES] },
  amount: moneySchema,
} as const;

export const claimReserveChangedData = {
  $id: eventSchemaId('claim.reserve_changed', 1),
  type: 'object',
  additionalProperties: false,
  required: ['claim_id', 'actor', 'change_id', 'cost_category', 'previous_open', 'open', 'cause'],
  properties: {
    ...claimEventProperties,
    change_id: { type: 'string', format: 'uuid' },
    cost_category: { enum: [...COST_CATEGORIES] },
    previous_open: moneySchema,
    open: moneySchema,
    cause: { enum: ['set', 'closing'] },
  },
} as const;
export const claimReserveChanged = eventKind<FromSchema<typeof claimReserveChangedData>>({
  type: 'claim.reserve_changed',
  summary: "A claim's open reserve of a cost category was set, or went to zero as the claim closed",
  schema: claimReserveChangedData,
});

export const claimPaymentRequestedData = {
  $id: eventSchemaId('claim.payment_requested', 1),
  type: 'object',
  additionalProperties: false,
  required: ['claim_id', 'actor', 'payment_id', 'cost_category', 'amount', 'payee_kind', 'status'],
  properties: {
    ...claimEventProperties,
    ...paymentFacts,
    payee_kind: { enum: [...PAYEE_KINDS] },
    status: { enum: ['approved', 'awaiting_approval'] },
  },
} as const;
export const claimPaymentRequested = eventKind<FromSchema<typeof claimPaymentRequestedData>>({
  type: 'claim.payment_requested',
  summary: "A payment was requested: approved at once within the requester's authority, or awaiting approval above it",
  schema: claimPaymentRequestedData,
});

export const claimPaymentDecidedData = {
  $id: eventSchemaId('claim.payment_decided', 1),
  type: 'object',
  additionalProperties: false,
  required: ['claim_id', 'actor', 'payment_id', 'cost_category', 'amount', 'decision'],
  properties: { ...claimEventProperties, ...paymentFacts, decision: { enum: ['approved', 'rejected'] } },
} as const;
export const claimPaymentDecided = eventKind<FromSchema<typeof claimPaymentDecidedData>>({
  type: 'claim.payment_decided',
  summary: 'A payment awaiting approval was approved or rejected by someone other than its requester',
  schema: claimPaymentDecidedData,
});

export const claimPaymentVoidedData = {
  $id: eventSchemaId('claim.payment_voided', 1),
  type: 'object',
  additionalProperties: false,
  required: ['claim_id', 'actor', 'payment_id', 'cost_category', 'amount', 'previous_status'],
  properties: { ...claimEventProperties, ...paymentFacts, previous_status: { enum: ['approved', 'awaiting_approval'] } },
} as const;
export const claimPaymentVoided = eventKind<FromSchema<typeof claimPaymentVoidedData>>({
  type: 'claim.payment_voided',
  summary: 'A payment was voided before it was issued',
  schema: claimPaymentVoidedData,
});
