import type { Router } from 'express';
import { principalOf } from '@platform/auth';
import { withTransactional } from '@platform/db';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import type { ClaimsConfig } from '../../config';
import { DECIDE_SCOPE, WRITE_SCOPE } from '../../shared/stage-machine';
import { parseAuthorityLimits } from './authority-limits';
import {
  approvalQueueQuerySchema,
  approvalQueueSchema,
  type ApprovalQueueQuery,
  financialsSchema,
  paymentDecisionRequestSchema,
  paymentRequestSchema,
  paymentSchema,
  paymentsPageSchema,
  paymentVoidRequestSchema,
  reserveChangeSchema,
  reserveRequestSchema,
  type PaymentDecisionRequest,
  type PaymentRequest,
  type PaymentVoidRequest,
  type ReserveRequest,
} from './financials-schemas';
import { financialsService } from './financials-service';

const claimId = '3f0e6c1a-8d2b-4c55-9a71-0b6f1f2d9e41';
const paymentId = '7a1c2e3d-4b5f-4a6b-8c7d-9e0f1a2b3c4d';
const at = '2026-03-02T10:15:00.000Z';
const usd = (amount: string) => ({ amount, currency: 'USD' });
const paymentExample = {
  payment_id: paymentId,
  claim_id: claimId,
  cost_category: 'indemnity',
  amount: usd('7500.00'),
  payee: { name: 'Ana Ruiz', kind: 'claimant' },
  method: 'eft',
  memo: 'Repair settlement',
  invoice_attachment_id: null,
  status: 'awaiting_approval',
  authority_limit: usd('5000.00'),
  requested_by: 'adjuster-7',
  requested_at: at,
  decision: null,
  void: null,
};
const figures = (reserve: string, paid: string, awaiting: string, outstanding: string, incurred: string) => ({
  reserve: usd(reserve),
  paid: usd(paid),
  awaiting_approval: usd(awaiting),
  outstanding: usd(outstanding),
  incurred: usd(incurred),
});
const financialsExample = {
  claim_id: claimId,
  currency: 'USD',
  categories: {
    indemnity: figures('12000.00', '0.00', '7500.00', '4500.00', '4500.00'),
    expense: figures('500.00', '250.00', '0.00', '250.00', '500.00'),
  },
  totals: figures('12500.00', '250.00', '7500.00', '4750.00', '5000.00'),
  authority_limit: usd('5000.00'),
};
const decidedExample = {
  ...paymentExample,
  status: 'approved',
  decision: { decision: 'approved', decided_by: 'lead-2', decided_at: at, rationale: 'Matches the repair invoice' },
};

const common = {
  401: { description: 'No credentials, or credentials that do not verify' },
  404: { description: 'No such claim (or payment)' },
  503: { description: 'The database is unavailable' },
};
const writes = {
  ...common,
  400: { description: 'Malformed JSON or a schema violation (an amount with more than two decimals, a number instead of a string…)' },
  403: { description: 'The caller lacks claims:write and claims:decide' },
  415: { description: 'Content-Type is not application/json' },
};

/**
 * Reserves and payments: POST …/reserves, GET …/financials, POST/GET …/payments, POST …/payments/{id}/decision
 * and …/void. Money is `{ amount: "1234.50", currency: "USD" }` throughout.
 */
export function financialsRoutes(deps: ServiceDeps, config: ClaimsConfig): Router {
  const { router, defineRoute } = featureRoutes(deps, 'Financials');
  const financials = withTransactional(
    financialsService(config.CLAIMS_EXCHANGE, parseAuthorityLimits(config.PAYMENT_AUTHORITY_LIMITS)),
    deps.db,
  );

  defineRoute<{ body: ReserveRequest }>({
    method: 'post',
    path: '/api/claims/claims/{id}/reserves',
    operationId: 'setClaimReserve',
    summary: "Set a cost category's open reserve",
    description:
      '`amount` becomes the open reserve of `cost_category` (what may still be paid from it), not an increment. Every change is a ' +
      'row (who, when, why, open reserve from → to), never an update, and publishes `claim.reserve_changed`. The first reserve sets ' +
      "the claim's currency; another currency later is 422. A closed claim is 409.",
    scopes: [WRITE_SCOPE, DECIDE_SCOPE],
    body: {
      contentType: 'application/json',
      schema: reserveRequestSchema,
      example: { cost_category: 'indemnity', amount: usd('12000.00'), reason: 'Repair estimate received' },
    },
    responses: {
      201: {
        description: 'The recorded change',
        schema: reserveChangeSchema,
        schemaName: 'ReserveChange',
        example: {
          change_id: paymentId,
          claim_id: claimId,
          cost_category: 'indemnity',
          previous_open: usd('0.00'),
          open: usd('12000.00'),
          cause: 'set',
          reason: 'Repair estimate received',
          actor: 'adjuster-7',
          changed_at: at,
        },
      },
      ...writes,
      409: { description: 'The claim is closed' },
      422: { description: "Another currency than the claim's, or a reserve beyond numeric(18,2)" },
    },
    handler: async (req, res, { body }) => {
      const caller = principalOf(req);
      res.status(201).json(await financials.transactional((s) => s.setReserve(String(req.params.id), body, caller)));
    },
  });

  defineRoute({
    method: 'get',
    path: '/api/claims/claims/{id}/financials',
    operationId: 'getClaimFinancials',
    summary: 'Reserves, paid, awaiting approval, outstanding and incurred per cost category, and totals',
    description:
      "Per category: `reserve` = paid + awaiting approval + outstanding; `outstanding` is the open reserve; `incurred` = paid + outstanding. `authority_limit` is the caller's own limit.",
    scopes: ['claims:read'],
    responses: {
      200: { description: 'The figures', schema: financialsSchema, schemaName: 'Financials', example: financialsExample },
      400: { description: 'A body was sent' },
      403: { description: 'The caller lacks claims:read' },
      ...common,
    },
    handler: async (req, res) => {
      res.json(await financials.transactional((s) => s.financials(String(req.params.id), principalOf(req))));
    },
  });

  defineRoute<{ body: PaymentRequest }>({
    method: 'post',
    path: '/api/claims/claims/{id}/payments',
    operationId: 'requestClaimPayment',
    summary: 'Request a payment: approved within your authority limit, awaiting approval above it',
    description:
      "A payment beyond the open reserve of its category is 409 (raise the reserve first). Within the requester's authority limit " +
      '(`PAYMENT_AUTHORITY_LIMITS`: their own entry, else the highest of their scopes, else 0) it is `approved` at once; above it, ' +
      'it is `awaiting_approval` until someone else whose limit covers it decides (POST …/decision). Publishes `claim.payment_requested` ' +
      '(amounts and category, never the payee).',
    scopes: [WRITE_SCOPE, DECIDE_SCOPE],
    body: {
      contentType: 'application/json',
      schema: paymentRequestSchema,
      example: {
        cost_category: 'indemnity',
        amount: usd('7500.00'),
        payee: { name: 'Ana Ruiz', kind: 'claimant' },
        method: 'eft',
        memo: 'Repair settlement',
      },
    },
    responses: {
      201: { description: 'The payment', schema: paymentSchema, schemaName: 'Payment', example: paymentExample },
      ...writes,
      409: { description: 'Beyond the open reserve of the category, no reserve yet, or a closed claim' },
      422: { description: "Another currency than the claim's, or an invoice_attachment_id that is not this claim's" },
    },
    handler: async (req, res, { body }) => {
      const caller = principalOf(req);
      const payment = await financials.transactional((s) => s.requestPayment(String(req.params.id), body, caller));
      res.status(201).location(`/api/claims/claims/${payment.claim_id}/payments/${payment.payment_id}`).json(payment);
    },
  });

  defineRoute({
    method: 'get',
    path: '/api/claims/claims/{id}/payments',
    operationId: 'listClaimPayments',
    summary: "The claim's payments, newest first",
    scopes: ['claims:read'],
    responses: {
      200: { description: 'Every payment of the claim', schema: paymentsPageSchema, example: { items: [decidedExample] } },
      400: { description: 'A body was sent' },
      403: { description: 'The caller lacks claims:read' },
      ...common,
    },
    handler: async (req, res) => {
      res.json({ items: await financials.transactional((s) => s.payments(String(req.params.id))) });
    },
  });

  defineRoute({
    method: 'get',
    path: '/api/claims/claims/{id}/payments/{payment_id}',
    operationId: 'getClaimPayment',
    summary: 'One payment',
    scopes: ['claims:read'],
    responses: {
      200: { description: 'The payment', schema: paymentSchema, schemaName: 'Payment', example: paymentExample },
      400: { description: 'A body was sent' },
      403: { description: 'The caller lacks claims:read' },
      ...common,
    },
    handler: async (req, res) => {
      res.json(await financials.transactional((s) => s.payment(String(req.params.id), String(req.params.payment_id))));
    },
  });

  defineRoute<{ body: PaymentDecisionRequest }>({
    method: 'post',
    path: '/api/claims/claims/{id}/payments/{payment_id}/decision',
    operationId: 'decideClaimPayment',
    summary: 'Approve or reject a payment awaiting approval',
    description:
      'Someone other than the requester (the same normalised-subject comparison as evidence approvals: case, accents, width and ' +
      'look-alike letters do not make a second person) whose authority limit covers the amount. `rationale` is required for both ' +
      'decisions. Publishes `claim.payment_decided`.',
    scopes: [WRITE_SCOPE, DECIDE_SCOPE],
    body: {
      contentType: 'application/json',
      schema: paymentDecisionRequestSchema,
      example: { decision: 'approved', rationale: 'Matches the repair invoice' },
    },
    responses: {
      200: { description: 'The payment decided', schema: paymentSchema, schemaName: 'Payment', example: decidedExample },
      ...writes,
      403: { description: 'The requester deciding their own payment, a limit below the amount, or neither claims:write nor claims:decide' },
      409: { description: 'The payment is not awaiting approval, or the claim is closed' },
    },
    handler: async (req, res, { body }) => {
      const caller = principalOf(req);
      res.json(await financials.transactional((s) => s.decide(String(req.params.id), String(req.params.payment_id), body, caller)));
    },
  });

  defineRoute<{ body: PaymentVoidRequest }>({
    method: 'post',
    path: '/api/claims/claims/{id}/payments/{payment_id}/void',
    operationId: 'voidClaimPayment',
    summary: 'Void a payment before it is issued',
    description: 'An approved payment or one awaiting approval; its amount returns to the open reserve. Publishes `claim.payment_voided`.',
    scopes: [WRITE_SCOPE, DECIDE_SCOPE],
    body: {
      contentType: 'application/json',
      schema: paymentVoidRequestSchema,
      example: { reason: 'Duplicate of an earlier payment' },
    },
    responses: {
      200: {
        description: 'The payment voided',
        schema: paymentSchema,
        schemaName: 'Payment',
        example: {
          ...decidedExample,
          status: 'voided',
          void: { voided_by: 'adjuster-7', voided_at: at, reason: 'Duplicate of an earlier payment' },
        },
      },
      ...writes,
      409: { description: 'The payment is already rejected or voided, or the claim is closed' },
    },
    handler: async (req, res, { body }) => {
      const caller = principalOf(req);
      res.json(await financials.transactional((s) => s.void(String(req.params.id), String(req.params.payment_id), body, caller)));
    },
  });
  defineRoute<{ query: ApprovalQueueQuery }>({
    method: 'get',
    path: '/api/claims/payments/awaiting-approval',
    operationId: 'listPaymentsAwaitingApproval',
    summary: 'The payment approval queue: payments awaiting approval across claims, oldest first',
    description:
      'Each with `you_may_decide` and, when not, `why_not` (the caller requested it — the normalised-subject comparison — or it is ' +
      'above their authority limit). Cursor-paged.',
    scopes: [WRITE_SCOPE, DECIDE_SCOPE],
    query: approvalQueueQuerySchema,
    responses: {
      200: {
        description: 'A page of the queue',
        schema: approvalQueueSchema,
        example: { items: [{ payment: paymentExample, you_may_decide: true, why_not: null }], next_cursor: null },
      },
      400: { description: 'An unknown or malformed query parameter, or a cursor this service did not issue' },
      401: { description: 'No credentials, or credentials that do not verify' },
      403: { description: 'The caller lacks claims:write and claims:decide' },
      503: { description: 'The database is unavailable' },
    },
    handler: async (req, res, { query }) => {
      const caller = principalOf(req);
      res.json(await financials.transactional((s) => s.approvalQueue(query, caller)));
    },
  });
  return router;
}
