import { useState, type FormEvent } from 'react';
import type { components } from '../../api/client';
import { AMOUNT, centsOf, moneyText as show } from '../money';

type Schemas = components['schemas'];
type Figures = Schemas['Financials']['totals'];
/** GET /api/claims/claims/{id}/financials. */
export type ClaimFinancials = Omit<Schemas['Financials'], 'claim_id'>;
type Category = Schemas['SetClaimReserveRequest']['cost_category'];
export type ReserveInput = Schemas['SetClaimReserveRequest'];
export type PaymentInput = Schemas['RequestClaimPaymentRequest'];

const CATEGORIES: Category[] = ['indemnity', 'expense'];
const ROWS: [keyof Figures, string][] = [
  ['reserve', 'Reserve'],
  ['paid', 'Paid'],
  ['awaiting_approval', 'Awaiting approval'],
  ['outstanding', 'Outstanding'],
  ['incurred', 'Incurred'],
];

interface Props {
  financials: ClaimFinancials;
  onSetReserve: (input: ReserveInput) => Promise<void>;
  onRequestPayment: (input: PaymentInput) => Promise<void>;
}

/**
 * Reserves by category, paid, outstanding; setting a reserve and requesting a payment with the caller's
 * authority limit shown. Mount with GET …/financials and callbacks that POST to …/reserves and …/payments.
 */
export function FinancialsPanel({ financials, onSetReserve, onRequestPayment }: Props) {
  const currency = financials.currency ?? 'USD';
  const [reserve, setReserve] = useState({ category: 'indemnity' as Category, amount: '', reason: '' });
  const [payment, setPayment] = useState({
    category: 'indemnity' as Category,
    amount: '',
    payee: '',
    kind: 'claimant',
    method: 'eft',
    memo: '',
  });
  const [message, setMessage] = useState<{ kind: 'status' | 'alert'; text: string } | null>(null);
  const aboveLimit = AMOUNT.test(payment.amount) && centsOf(payment.amount) > centsOf(financials.authority_limit.amount);

  async function run(what: string, work: () => Promise<void>) {
    setMessage(null);
    try {
      await work();
      setMessage({ kind: 'status', text: `${what}.` });
    } catch (failure) {
      setMessage({ kind: 'alert', text: `${what} failed: ${(failure as Error).message}` });
    }
  }

  function submitReserve(event: FormEvent) {
    event.preventDefault();
    if (!AMOUNT.test(reserve.amount)) return setMessage({ kind: 'alert', text: 'The reserve must be an amount like 1234.50.' });
    if (reserve.reason.trim() === '') return setMessage({ kind: 'alert', text: 'Say why the reserve changes.' });
    void run('Reserve set', () =>
      onSetReserve({ cost_category: reserve.category, amount: { amount: reserve.amount, currency }, reason: reserve.reason }),
    );
  }

  function submitPayment(event: FormEvent) {
    event.preventDefault();
    if (!AMOUNT.test(payment.amount) || centsOf(payment.amount) === 0n)
      return setMessage({ kind: 'alert', text: 'The payment must be an amount like 1234.50, more than zero.' });
    if (payment.payee.trim() === '' || payment.memo.trim() === '')
      return setMessage({ kind: 'alert', text: 'Name the payee and write a memo.' });
    void run(aboveLimit ? 'Payment requested for approval' : 'Payment approved', () =>
      onRequestPayment({
        cost_category: payment.category,
        amount: { amount: payment.amount, currency },
        payee: { name: payment.payee, kind: payment.kind as 'claimant' | 'vendor' },
        method: payment.method as 'eft' | 'check',
        memo: payment.memo,
      }),
    );
  }

  return (
    <section aria-labelledby="financials-heading">
      <h2 id="financials-heading">Financials</h2>
      <table>
        <caption>Reserves and payments ({currency})</caption>
        <thead>
          <tr>
            <th scope="col">Figure</th>
            <th scope="col">Indemnity</th>
            <th scope="col">Expense</th>
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          {ROWS.map(([key, label]) => (
            <tr key={key}>
              <th scope="row">{label}</th>
              {CATEGORIES.map((c) => (
                <td key={c}>{show(financials.categories[c][key])}</td>
              ))}
              <td>{show(financials.totals[key])}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {message && <p role={message.kind}>{message.text}</p>}

      <form onSubmit={submitReserve} aria-labelledby="reserve-heading">
        <h3 id="reserve-heading">Set a reserve</h3>
        <label htmlFor="reserve-category">Category</label>
        <select
          id="reserve-category"
          value={reserve.category}
          onChange={(e) => setReserve({ ...reserve, category: e.target.value as Category })}
        >
          {CATEGORIES.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
        <label htmlFor="reserve-amount">Open reserve ({currency})</label>
        <input
          id="reserve-amount"
          inputMode="decimal"
          value={reserve.amount}
          onChange={(e) => setReserve({ ...reserve, amount: e.target.value.trim() })}
        />
        <label htmlFor="reserve-reason">Reason</label>
        <input id="reserve-reason" value={reserve.reason} onChange={(e) => setReserve({ ...reserve, reason: e.target.value })} />
        <button type="submit">Set reserve</button>
      </form>

      <form onSubmit={submitPayment} aria-labelledby="payment-heading">
        <h3 id="payment-heading">Request a payment</h3>
        {/* Before the first reserve the claim has no currency (the API says XXX): the limit reads in the currency the forms use. */}
        <p>Your authority limit: {show({ amount: financials.authority_limit.amount, currency })}</p>
        <label htmlFor="payment-category">Category</label>
        <select
          id="payment-category"
          value={payment.category}
          onChange={(e) => setPayment({ ...payment, category: e.target.value as Category })}
        >
          {CATEGORIES.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
        <label htmlFor="payment-amount">Amount ({currency})</label>
        <input
          id="payment-amount"
          inputMode="decimal"
          aria-describedby="payment-limit"
          value={payment.amount}
          onChange={(e) => setPayment({ ...payment, amount: e.target.value.trim() })}
        />
        <p id="payment-limit">{aboveLimit ? 'Above your limit: someone with a higher limit must approve.' : ''}</p>
        <label htmlFor="payment-payee">Payee</label>
        <input id="payment-payee" value={payment.payee} onChange={(e) => setPayment({ ...payment, payee: e.target.value })} />
        <label htmlFor="payment-kind">Payee is</label>
        <select id="payment-kind" value={payment.kind} onChange={(e) => setPayment({ ...payment, kind: e.target.value })}>
          <option value="claimant">the claimant</option>
          <option value="vendor">a vendor</option>
        </select>
        <label htmlFor="payment-method">Method</label>
        <select id="payment-method" value={payment.method} onChange={(e) => setPayment({ ...payment, method: e.target.value })}>
          <option value="eft">EFT</option>
          <option value="check">Check</option>
        </select>
        <label htmlFor="payment-memo">Memo</label>
        <input id="payment-memo" value={payment.memo} onChange={(e) => setPayment({ ...payment, memo: e.target.value })} />
        <button type="submit">Request payment</button>
      </form>
    </section>
  );
}
