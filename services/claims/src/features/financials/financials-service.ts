import { randomUUID } from 'node:crypto';
import type { Principal } from '@platform/auth';
import { subjectKeySql } from '@platform/auth';
import type { Knex } from '@platform/db';
import { UUID_PATTERN, invalidCursor, problems } from '@platform/http';
import { recordClaimChange } from '../../shared/claim-change';
import { lockClaim, readClaim } from '../../shared/claim-state';
import { isClosed } from '../../shared/stage-machine';
import { authorityLimitOf, type AuthorityLimits } from './authority-limits';
import { claimPaymentDecided, claimPaymentRequested, claimPaymentVoided, claimReserveChanged } from './financials-events';
import {
  COST_CATEGORIES,
  type ApprovalQueueQuery,
  type ClaimantPayment,
  type Financials,
  type Payment,
  type PaymentDecisionRequest,
  type PaymentRequest,
  type PaymentVoidRequest,
  type ReserveChange,
  type ReserveRequest,
} from './financials-schemas';
import { fromCents, toCents } from './money';

type Category = (typeof COST_CATEGORIES)[number];
interface Figures {
  reserve: bigint;
  paid: bigint;
  awaiting: bigint;
}
/** The largest amount numeric(18,2) holds, in cents. */
const MAX_CENTS = 999999999999999999n;

const money = (cents: bigint, currency: string) => ({ amount: fromCents(cents), currency });
const outstandingOf = (f: Figures) => f.reserve - f.paid - f.awaiting;

interface PaymentRow {
  id: string;
  claim_id: string;
  cost_category: Category;
  amount: string;
  currency: string;
  payee_name: string;
  payee_kind: 'claimant' | 'vendor';
  method: 'eft' | 'check';
  memo: string;
  invoice_attachment_id: string | null;
  status: Payment['status'];
  authority_limit: string;
  requested_by: string;
  requested_at: Date;
  decided_by: string | null;
  decided_at: Date | null;
  decision_rationale: string | null;
  voided_by: string | null;
  voided_at: Date | null;
  void_reason: string | null;
}

function paymentOf(row: PaymentRow): Payment {
  const decided = row.decided_by !== null && row.decided_at !== null;
  return {
    payment_id: row.id,
    claim_id: row.claim_id,
    cost_category: row.cost_category,
    amount: money(toCents(row.amount), row.currency),
    payee: { name: row.payee_name, kind: row.payee_kind },
    method: row.method,
    memo: row.memo,
    invoice_attachment_id: row.invoice_attachment_id,
    status: row.status,
    authority_limit: money(toCents(row.authority_limit), row.currency),
    requested_by: row.requested_by,
    requested_at: new Date(row.requested_at).toISOString(),
    decision: decided
      ? {
          // A void keeps the decision it followed; only a rejection is recorded as one
          decision: row.status === 'rejected' ? 'rejected' : 'approved',
          decided_by: row.decided_by as string,
          decided_at: new Date(row.decided_at as Date).toISOString(),
          rationale: row.decision_rationale,
        }
      : null,
    void:
      row.voided_by !== null && row.voided_at !== null
        ? { voided_by: row.voided_by, voided_at: new Date(row.voided_at).toISOString(), reason: row.void_reason ?? '' }
        : null,
  };
}

/** The claim's figures per category and its currency (null before its first reserve). */
async function figuresOf(db: Knex, claimId: string): Promise<{ currency: string | null; byCategory: Record<Category, Figures> }> {
  const byCategory = Object.fromEntries(COST_CATEGORIES.map((c) => [c, { reserve: 0n, paid: 0n, awaiting: 0n }])) as Record<
    Category,
    Figures
  >;
  const reserves: { cost_category: Category; reserve: string; currency: string }[] = await db('reserve_changes')
    .distinctOn('cost_category')
    .where({ claim_id: claimId })
    .orderBy([{ column: 'cost_category' }, { column: 'seq', order: 'desc' }])
    .select('cost_category', 'reserve', 'currency');
  for (const row of reserves) byCategory[row.cost_category].reserve = toCents(row.reserve);
  const sums: { cost_category: Category; status: string; total: string }[] = await db('payments')
    .where({ claim_id: claimId })
    .whereIn('status', ['approved', 'awaiting_approval'])
    .groupBy('cost_category', 'status')
    .select('cost_category', 'status', db.raw('sum(amount)::text AS total'));
  for (const row of sums) byCategory[row.cost_category][row.status === 'approved' ? 'paid' : 'awaiting'] = toCents(row.total);
  return { currency: reserves[0]?.currency ?? null, byCategory };
}

function financialsOf(claimId: string, currency: string | null, byCategory: Record<Category, Figures>, limit: bigint): Financials {
  const shown = currency ?? 'XXX';
  const view = (f: Figures) => ({
    reserve: money(f.reserve, shown),
    paid: money(f.paid, shown),
    awaiting_approval: money(f.awaiting, shown),
    outstanding: money(outstandingOf(f), shown),
    incurred: money(f.paid + outstandingOf(f), shown),
  });
  const total = COST_CATEGORIES.reduce<Figures>(
    (sum, c) => ({
      reserve: sum.reserve + byCategory[c].reserve,
      paid: sum.paid + byCategory[c].paid,
      awaiting: sum.awaiting + byCategory[c].awaiting,
    }),
    { reserve: 0n, paid: 0n, awaiting: 0n },
  );
  return {
    claim_id: claimId,
    currency,
    categories: { indemnity: view(byCategory.indemnity), expense: view(byCategory.expense) },
    totals: view(total),
    authority_limit: money(limit, shown),
  };
}

async function appendReserveChange(
  db: Knex,
  exchange: string,
  change: { claimId: string; category: Category; currency: string; previousOpen: bigint; open: bigint; reserve: bigint },
  cause: 'set' | 'closing',
  reason: string,
  actor: string,
): Promise<ReserveChange> {
  const [row] = await db('reserve_changes')
    .insert({
      id: randomUUID(),
      claim_id: change.claimId,
      cost_category: change.category,
      currency: change.currency,
      previous_open: fromCents(change.previousOpen),
      open: fromCents(change.open),
      reserve: fromCents(change.reserve),
      cause,
      reason,
      actor,
    })
    .returning(['id', 'created_at']);
  const facts = {
    change_id: row.id as string,
    cost_category: change.category,
    previous_open: money(change.previousOpen, change.currency),
    open: money(change.open, change.currency),
    cause,
  };
  await recordClaimChange(db, exchange, { claimId: change.claimId, event: claimReserveChanged, actor, reason, data: facts });
  return { ...facts, claim_id: change.claimId, reason, actor, changed_at: new Date(row.created_at).toISOString() };
}

const requireOpen = (stage: Parameters<typeof isClosed>[0]) => {
  if (isClosed(stage)) throw problems.conflict('The claim is closed; reopen it before changing its reserves or payments');
};

/**
 * Reserves and payments of a claim. Every write locks the claim row first, so the reserve checks of two
 * payments, a decision and a closing happen one after another.
 */
export const financialsService = (exchange: string, limits: AuthorityLimits) => (db: Knex) => {
  async function lockedPayment(claimId: string, paymentId: string) {
    const claim = await lockClaim(db, claimId);
    const row: PaymentRow | undefined = /^[0-9a-f-]{36}$/i.test(paymentId)
      ? await db('payments').where({ claim_id: claim.claim_id, id: paymentId.toLowerCase() }).first()
      : undefined;
    if (!row) throw problems.notFound('No such payment on this claim');
    return { claim, row };
  }

  return {
    async financials(claimId: string, caller: Principal): Promise<Financials> {
      const claim = await readClaim(db, claimId);
      const { currency, byCategory } = await figuresOf(db, claim.claim_id);
      return financialsOf(claim.claim_id, currency, byCategory, authorityLimitOf(limits, caller));
    },

    async setReserve(claimId: string, request: ReserveRequest, caller: Principal): Promise<ReserveChange> {
      const claim = await lockClaim(db, claimId);
      requireOpen(claim.stage);
      const { currency, byCategory } = await figuresOf(db, claim.claim_id);
      if (currency !== null && currency !== request.amount.currency) {
        throw problems.unprocessable(`This claim's reserves and payments are in ${currency}`, {
          errors: [{ pointer: '/amount/currency', message: `must be ${currency}` }],
        });
      }
      const figures = byCategory[request.cost_category];
      const open = toCents(request.amount.amount);
      const reserve = figures.paid + figures.awaiting + open;
      if (reserve > MAX_CENTS) {
        throw problems.unprocessable('Paid, awaiting approval and the open reserve together exceed 9999999999999999.99', {
          errors: [{ pointer: '/amount/amount', message: 'is too large for this category' }],
        });
      }
      return appendReserveChange(
        db,
        exchange,
        {
          claimId: claim.claim_id,
          category: request.cost_category,
          currency: request.amount.currency,
          previousOpen: outstandingOf(figures),
          open,
          reserve,
        },
        'set',
        request.reason,
        caller.sub,
      );
    },

    async requestPayment(claimId: string, request: PaymentRequest, caller: Principal): Promise<Payment> {
      const claim = await lockClaim(db, claimId);
      requireOpen(claim.stage);
      const { currency, byCategory } = await figuresOf(db, claim.claim_id);
      if (currency === null) throw problems.conflict('The claim has no reserve; set the reserve of the category first');
      if (currency !== request.amount.currency) {
        throw problems.unprocessable(`This claim's reserves and payments are in ${currency}`, {
          errors: [{ pointer: '/amount/currency', message: `must be ${currency}` }],
        });
      }
      const amount = toCents(request.amount.amount);
      const open = outstandingOf(byCategory[request.cost_category]);
      if (amount > open) {
        throw problems.conflict(
          `The payment exceeds the open ${request.cost_category} reserve (${fromCents(open)} ${currency}); raise the reserve first`,
          { open_reserve: money(open, currency) },
        );
      }
      if (request.invoice_attachment_id !== undefined) {
        const attachment = await db('attachments')
          .where({ id: request.invoice_attachment_id.toLowerCase(), claim_id: claim.claim_id })
          .first('id');
        if (!attachment) {
          throw problems.unprocessable('invoice_attachment_id names no attachment of this claim', {
            errors: [{ pointer: '/invoice_attachment_id', message: 'is not an attachment of this claim' }],
          });
        }
      }
      const limit = authorityLimitOf(limits, caller);
      const approved = amount <= limit;
      const [row]: PaymentRow[] = await db('payments')
        .insert({
          id: randomUUID(),
          claim_id: claim.claim_id,
          cost_category: request.cost_category,
          amount: fromCents(amount),
          currency,
          payee_name: request.payee.name,
          payee_kind: request.payee.kind,
          method: request.method,
          memo: request.memo,
          invoice_attachment_id: request.invoice_attachment_id?.toLowerCase() ?? null,
          status: approved ? 'approved' : 'awaiting_approval',
          authority_limit: fromCents(limit),
          requested_by: caller.sub,
          ...(approved ? { decided_by: caller.sub, decided_at: db.raw('clock_timestamp()') } : {}),
        })
        .returning('*');
      const payment = paymentOf(row);
      await recordClaimChange(db, exchange, {
        claimId: claim.claim_id,
        event: claimPaymentRequested,
        actor: caller.sub,
        reason: approved ? "Payment within the requester's authority" : "Payment above the requester's authority: awaiting approval",
        data: {
          payment_id: payment.payment_id,
          cost_category: payment.cost_category,
          amount: payment.amount,
          payee_kind: payment.payee.kind,
          status: approved ? 'approved' : 'awaiting_approval',
        },
      });
      return payment;
    },

    /** Payments awaiting approval across claims, oldest first, with whether the caller may decide each and why not. */
    async approvalQueue(query: ApprovalQueueQuery, caller: Principal) {
      const limit = query.limit ?? 25;
      let after: { s: string; i: string } | undefined;
      if (query.cursor !== undefined) {
        try {
          after = JSON.parse(Buffer.from(query.cursor, 'base64url').toString('utf8'));
        } catch {
          throw invalidCursor();
        }
        if (typeof after?.s !== 'string' || !/^[0-9]{1,18}$/.test(after.s) || typeof after.i !== 'string' || !UUID_PATTERN.test(after.i)) {
          throw invalidCursor();
        }
      }
      const rows: (PaymentRow & { seq: string; mine: boolean })[] = await db('payments')
        .where({ status: 'awaiting_approval' })
        .modify((q) => {
          if (after) q.where('seq', '>', after.s);
        })
        .orderBy('seq')
        .limit(limit + 1)
        .select('*', db.raw(`${subjectKeySql('requested_by')} = ${subjectKeySql('?')} AS mine`, [caller.sub]));
      const page = rows.slice(0, limit);
      const own = authorityLimitOf(limits, caller);
      const items = page.map((row) => {
        const whyNot = row.mine
          ? 'You requested this payment; someone else with the authority must decide it'
          : own < toCents(row.amount)
            ? 'Above your authority limit: someone with a higher limit must decide it'
            : null;
        return { payment: paymentOf(row), you_may_decide: whyNot === null, why_not: whyNot };
      });
      const last = page[page.length - 1];
      const nextCursor =
        rows.length > limit ? Buffer.from(JSON.stringify({ s: String(last.seq), i: last.id }), 'utf8').toString('base64url') : null;
      return { items, next_cursor: nextCursor };
    },

    async payments(claimId: string): Promise<Payment[]> {
      const claim = await readClaim(db, claimId);
      const rows: PaymentRow[] = await db('payments').where({ claim_id: claim.claim_id }).orderBy('seq', 'desc');
      return rows.map(paymentOf);
    },

    async payment(claimId: string, paymentId: string): Promise<Payment> {
      const claim = await readClaim(db, claimId);
      const row: PaymentRow | undefined = /^[0-9a-f-]{36}$/i.test(paymentId)
        ? await db('payments').where({ claim_id: claim.claim_id, id: paymentId.toLowerCase() }).first()
        : undefined;
      if (!row) throw problems.notFound('No such payment on this claim');
      return paymentOf(row);
    },

    async decide(claimId: string, paymentId: string, request: PaymentDecisionRequest, caller: Principal): Promise<Payment> {
      const { claim, row } = await lockedPayment(claimId, paymentId);
      requireOpen(claim.stage);
      if (row.status !== 'awaiting_approval') throw problems.conflict(`The payment is ${row.status}, not awaiting approval`);
      // The same rule as evidence approvals, computed by PostgreSQL: case, accents, width and look-alikes do not make a second person
      const { same } = await db
        .select(db.raw(`${subjectKeySql('?')} = ${subjectKeySql('?')} AS same`, [row.requested_by, caller.sub]))
        .first();
      if (same) throw problems.forbidden('You requested this payment; someone else with the authority must decide it');
      if (authorityLimitOf(limits, caller) < toCents(row.amount)) {
        throw problems.forbidden('The payment is above your authority limit; someone with a higher limit must decide it');
      }
      const [updated]: PaymentRow[] = await db('payments')
        .where({ id: row.id })
        .update({
          status: request.decision,
          decided_by: caller.sub,
          decided_at: db.raw('clock_timestamp()'),
          decision_rationale: request.rationale,
        })
        .returning('*');
      const payment = paymentOf(updated);
      await recordClaimChange(db, exchange, {
        claimId: claim.claim_id,
        event: claimPaymentDecided,
        actor: caller.sub,
        reason: `Payment ${request.decision}`,
        data: { payment_id: payment.payment_id, cost_category: payment.cost_category, amount: payment.amount, decision: request.decision },
        timeline: { data: { payment_id: payment.payment_id, decision: request.decision, rationale: request.rationale } },
      });
      return payment;
    },

    async void(claimId: string, paymentId: string, request: PaymentVoidRequest, caller: Principal): Promise<Payment> {
      const { claim, row } = await lockedPayment(claimId, paymentId);
      requireOpen(claim.stage);
      if (row.status !== 'approved' && row.status !== 'awaiting_approval') throw problems.conflict(`The payment is already ${row.status}`);
      const [updated]: PaymentRow[] = await db('payments')
        .where({ id: row.id })
        .update({ status: 'voided', voided_by: caller.sub, voided_at: db.raw('clock_timestamp()'), void_reason: request.reason })
        .returning('*');
      const payment = paymentOf(updated);
      await recordClaimChange(db, exchange, {
        claimId: claim.claim_id,
        event: claimPaymentVoided,
        actor: caller.sub,
        reason: request.reason,
        data: { payment_id: payment.payment_id, cost_category: payment.cost_category, amount: payment.amount, previous_status: row.status },
      });
      return payment;
    },
  };
};

/**
 * The closing rules, on the closing's transaction with the claim locked: no payment may await approval, a
 * claim closes as `paid` only with something paid, and the remaining open reserves go to zero as changes.
 */
export async function settleReservesOnClosing(db: Knex, exchange: string, claimId: string, reason: string, actor: string): Promise<void> {
  const { currency, byCategory } = await figuresOf(db, claimId);
  const all = COST_CATEGORIES.map((c) => byCategory[c]);
  if (all.some((f) => f.awaiting > 0n)) {
    throw problems.conflict('A payment on this claim awaits approval; decide or void it before closing the claim');
  }
  if (reason === 'paid' && all.every((f) => f.paid === 0n)) {
    throw problems.conflict('Nothing has been paid on this claim; it cannot close as paid');
  }
  if (currency === null) return;
  for (const category of COST_CATEGORIES) {
    const figures = byCategory[category];
    const open = outstandingOf(figures);
    if (open === 0n) continue;
    await appendReserveChange(
      db,
      exchange,
      { claimId, category, currency, previousOpen: open, open: 0n, reserve: figures.paid },
      'closing',
      `Claim closed as ${reason}: remaining reserve released`,
      actor,
    );
  }
}

/** What the claimant sees: approved payments to them (amount, day, method), never reserves or other payees. */
export async function claimantPayments(db: Knex, claimId: string): Promise<ClaimantPayment[]> {
  const rows: { amount: string; currency: string; method: 'eft' | 'check'; decided_at: Date }[] = await db('payments')
    .where({ claim_id: claimId, status: 'approved', payee_kind: 'claimant' })
    .orderBy('seq', 'desc')
    .select('amount', 'currency', 'method', 'decided_at');
  return rows.map((r) => ({
    amount: money(toCents(r.amount), r.currency),
    paid_on: new Date(r.decided_at).toISOString().slice(0, 10),
    method: r.method,
  }));
}
