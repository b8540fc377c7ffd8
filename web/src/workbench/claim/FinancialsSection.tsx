import { Link } from 'react-router-dom';
import type { components } from '../../api/client';
import { useInvalidate } from '../../api/queries';
import { claimChanges, claimKeys, useClaimFinancials, useClaimPayments } from './claim-api';
import { humanise } from '../QueuePage';
import { moneyText } from '../money';
import type { WorkbenchSession } from '../session';
import { ErrorAlert } from './claim-file';
import { problemDetail } from '../../api/problem';
import { FinancialsPanel, type PaymentInput, type ReserveInput } from './FinancialsPanel';

type Payment = components['schemas']['Payment'];

/** What became of a payment, in words; its requester is told when it waits for someone with a higher limit. */
export function paymentStateText(payment: Payment, viewer: string): string {
  const decided = payment.decision && `by ${payment.decision.decided_by}: ${payment.decision.rationale}`;
  switch (payment.status) {
    case 'awaiting_approval':
      return payment.requested_by === viewer
        ? `Awaiting approval: above your limit of ${moneyText(payment.authority_limit)}, someone with a higher limit must approve`
        : `Awaiting approval: above ${payment.requested_by}'s limit of ${moneyText(payment.authority_limit)}`;
    case 'approved':
      return decided ? `Approved ${decided}` : `Approved (within ${payment.requested_by}'s limit)`;
    case 'rejected':
      return `Rejected ${decided}`;
    case 'voided':
      return `Voided by ${payment.void?.voided_by}: ${payment.void?.reason}`;
  }
}

/** The claim's reserves and payments: the figures, setting a reserve, requesting a payment, and each payment's state. */
export function FinancialsSection({ claimId, session }: { claimId: string; session: WorkbenchSession }) {
  const invalidate = useInvalidate();
  const changes = claimChanges(claimId, session);
  const financials = useClaimFinancials(claimId, session);
  const payments = useClaimPayments(claimId, session);
  const changed = () => invalidate(claimKeys.financials(claimId), claimKeys.payments(claimId), claimKeys.claim(claimId));
  const onSetReserve = async (body: ReserveInput) => {
    const { error } = await changes.setReserve(body);
    if (error) throw new Error(problemDetail(error, 'The reserve could not be set'));
    await changed();
  };
  const onRequestPayment = async (body: PaymentInput) => {
    const { error } = await changes.requestPayment(body);
    if (error) throw new Error(problemDetail(error, 'The payment could not be requested'));
    await changed();
  };
  return (
    <>
      <ErrorAlert error={financials.error} />
      {financials.data && <FinancialsPanel financials={financials.data} onSetReserve={onSetReserve} onRequestPayment={onRequestPayment} />}
      <section aria-labelledby="payments-heading">
        <h2 id="payments-heading">Payments</h2>
        <ErrorAlert error={payments.error} />
        {payments.data?.items.length === 0 && <p>No payments.</p>}
        <ul aria-label="Payments, newest first">
          {payments.data?.items.map((payment) => (
            <li key={payment.payment_id} data-testid="payment">
              {moneyText(payment.amount)} {payment.cost_category} to {payment.payee.name} ({payment.payee.kind}) by{' '}
              {payment.method === 'eft' ? 'EFT' : 'check'}, requested by {payment.requested_by}:{' '}
              <span className={`badge badge--payment-${payment.status}`}>{humanise(payment.status)}</span>{' '}
              <span data-testid="payment-state">{paymentStateText(payment, session.sub)}</span>
              {payment.status === 'awaiting_approval' && payment.requested_by !== session.sub && (
                <>
                  {' '}
                  <Link to="/workbench/approvals">Open the approval queue</Link>
                </>
              )}
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
