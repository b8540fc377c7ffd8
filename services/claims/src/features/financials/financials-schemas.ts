import type { FromSchema } from '@platform/http';
import { NON_BLANK_TEXT_PATTERN } from '../../shared/claim-schemas';
import { AMOUNT_PATTERN, moneySchema } from './money';

export const COST_CATEGORIES = ['indemnity', 'expense'] as const;
export const PAYMENT_METHODS = ['eft', 'check'] as const;
export const PAYMENT_STATUSES = ['awaiting_approval', 'approved', 'rejected', 'voided'] as const;
export const PAYEE_KINDS = ['claimant', 'vendor'] as const;

const text = (maxLength: number, description?: string) =>
  ({ type: 'string', minLength: 1, maxLength, pattern: NON_BLANK_TEXT_PATTERN, ...(description ? { description } : {}) }) as const;

/** Body of POST …/reserves. */
export const reserveRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['cost_category', 'amount', 'reason'],
  properties: {
    cost_category: { enum: [...COST_CATEGORIES] },
    amount: {
      ...moneySchema,
      description: "The category's open reserve from now on (what may still be paid), not an increment",
    },
    reason: text(1000, 'Why the reserve changes (kept on the change and the timeline)'),
  },
} as const;
export type ReserveRequest = FromSchema<typeof reserveRequestSchema>;

export const reserveChangeSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['change_id', 'claim_id', 'cost_category', 'previous_open', 'open', 'cause', 'reason', 'actor', 'changed_at'],
  properties: {
    change_id: { type: 'string', format: 'uuid' },
    claim_id: { type: 'string', format: 'uuid' },
    cost_category: { enum: [...COST_CATEGORIES] },
    previous_open: moneySchema,
    open: moneySchema,
    cause: { enum: ['set', 'closing'], description: '`closing`: the claim closed and its remaining reserve went to zero' },
    reason: { type: 'string' },
    actor: { type: 'string' },
    changed_at: { type: 'string', format: 'date-time' },
  },
} as const;
export type ReserveChange = FromSchema<typeof reserveChangeSchema>;

const categoryFiguresSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['reserve', 'paid', 'awaiting_approval', 'outstanding', 'incurred'],
  properties: {
    reserve: { ...moneySchema, description: 'Paid + awaiting approval + outstanding' },
    paid: { ...moneySchema, description: 'Approved payments, less voided ones' },
    awaiting_approval: { ...moneySchema, description: 'Payments waiting for someone with the authority' },
    outstanding: { ...moneySchema, description: 'The open reserve: what may still be paid' },
    incurred: { ...moneySchema, description: 'Paid + outstanding' },
  },
} as const;

export const financialsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['claim_id', 'currency', 'categories', 'totals', 'authority_limit'],
  properties: {
    claim_id: { type: 'string', format: 'uuid' },
    currency: {
      type: ['string', 'null'],
      pattern: '^[A-Z]{3}$',
      description: "The claim's one currency (set by its first reserve); null before any",
    },
    categories: {
      type: 'object',
      additionalProperties: false,
      required: [...COST_CATEGORIES],
      properties: { indemnity: categoryFiguresSchema, expense: categoryFiguresSchema },
    },
    totals: categoryFiguresSchema,
    authority_limit: { ...moneySchema, description: "The caller's own payment authority limit (PAYMENT_AUTHORITY_LIMITS)" },
  },
} as const;
export type Financials = FromSchema<typeof financialsSchema>;

/** Body of POST …/payments. */
export const paymentRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['cost_category', 'amount', 'payee', 'method', 'memo'],
  properties: {
    cost_category: { enum: [...COST_CATEGORIES] },
    amount: {
      ...moneySchema,
      properties: { ...moneySchema.properties, amount: { ...moneySchema.properties.amount, not: { pattern: '^0(\\.0{1,2})?$' } } },
    },
    payee: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'kind'],
      properties: { name: text(200), kind: { enum: [...PAYEE_KINDS] } },
    },
    method: { enum: [...PAYMENT_METHODS] },
    memo: text(1000),
    invoice_attachment_id: { type: 'string', format: 'uuid', description: "An attachment of this claim (the vendor's invoice)" },
  },
} as const;
export type PaymentRequest = FromSchema<typeof paymentRequestSchema>;

export const paymentSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'payment_id',
    'claim_id',
    'cost_category',
    'amount',
    'payee',
    'method',
    'memo',
    'invoice_attachment_id',
    'status',
    'authority_limit',
    'requested_by',
    'requested_at',
    'decision',
    'void',
  ],
  properties: {
    payment_id: { type: 'string', format: 'uuid' },
    claim_id: { type: 'string', format: 'uuid' },
    cost_category: { enum: [...COST_CATEGORIES] },
    amount: moneySchema,
    payee: paymentRequestSchema.properties.payee,
    method: { enum: [...PAYMENT_METHODS] },
    memo: { type: 'string' },
    invoice_attachment_id: { type: ['string', 'null'], format: 'uuid' },
    status: { enum: [...PAYMENT_STATUSES] },
    authority_limit: { ...moneySchema, description: "The requester's limit when they asked" },
    requested_by: { type: 'string' },
    requested_at: { type: 'string', format: 'date-time' },
    decision: {
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          additionalProperties: false,
          required: ['decision', 'decided_by', 'decided_at', 'rationale'],
          properties: {
            decision: { enum: ['approved', 'rejected'] },
            decided_by: { type: 'string' },
            decided_at: { type: 'string', format: 'date-time' },
            rationale: { type: ['string', 'null'], description: "Null when the payment was within the requester's own limit" },
          },
        },
      ],
    },
    void: {
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          additionalProperties: false,
          required: ['voided_by', 'voided_at', 'reason'],
          properties: { voided_by: { type: 'string' }, voided_at: { type: 'string', format: 'date-time' }, reason: { type: 'string' } },
        },
      ],
    },
  },
} as const;
export type Payment = FromSchema<typeof paymentSchema>;

export const paymentsPageSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['items'],
  properties: { items: { type: 'array', items: paymentSchema, description: 'Newest first' } },
} as const;

/** Body of POST …/payments/{payment_id}/decision. */
export const paymentDecisionRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['decision', 'rationale'],
  properties: {
    decision: { enum: ['approved', 'rejected'] },
    rationale: text(2000, 'Why (required for both decisions)'),
  },
} as const;
export type PaymentDecisionRequest = FromSchema<typeof paymentDecisionRequestSchema>;

/** Body of POST …/payments/{payment_id}/void. */
export const paymentVoidRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['reason'],
  properties: { reason: text(1000) },
} as const;
export type PaymentVoidRequest = FromSchema<typeof paymentVoidRequestSchema>;

/** What the claimant sees of a payment made to them: never reserves, never other payees. */
export const claimantPaymentSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['amount', 'paid_on', 'method'],
  properties: {
    amount: moneySchema,
    paid_on: { type: 'string', format: 'date', description: 'The day the payment was approved (UTC)' },
    method: { enum: [...PAYMENT_METHODS] },
  },
} as const;
export type ClaimantPayment = FromSchema<typeof claimantPaymentSchema>;

/** GET /api/claims/payments/awaiting-approval: the approval queue, oldest request first. */
export const approvalQueueQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
    cursor: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' },
  },
} as const;
export type ApprovalQueueQuery = FromSchema<typeof approvalQueueQuerySchema>;

export const approvalQueueSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['items', 'next_cursor'],
  properties: {
    items: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['payment', 'you_may_decide', 'why_not'],
        properties: {
          payment: paymentSchema,
          you_may_decide: { type: 'boolean' },
          why_not: {
            type: ['string', 'null'],
            description: 'Why the caller may not decide it: they requested it, or it is above their limit',
          },
        },
      },
    },
    next_cursor: { type: ['string', 'null'] },
  },
} as const;

export { AMOUNT_PATTERN };
