import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { components } from '../api/client';
import { useInvalidate } from '../api/queries';
import { claimChanges, claimKeys, useClaimFinancials } from './claim/claim-api';
import { queueKeys, useApprovalQueue } from './queue-api';
import { ErrorAlert } from './claim/claim-file';
import { problemDetail } from '../api/problem';
import { moneyText } from './money';
import { usePageTitle, useSession } from './WorkbenchSession';

type QueueItem = components['schemas']['ListPaymentsAwaitingApprovalResponse']['items'][number];
type Decision = components['schemas']['DecideClaimPaymentRequest'];

/** The reserve position of the payment's category on its claim: reserve, paid, awaiting approval, outstanding. */
function ReservePosition({ item }: { item: QueueItem }) {
  const session = useSession();
  const { claim_id: claimId, cost_category: category } = item.payment;
  const financials = useClaimFinancials(claimId, session, 'The reserve position could not be loaded');
  if (financials.error) return <ErrorAlert error={financials.error} />;
  if (!financials.data) return <p>Loading the reserve position…</p>;
  const figures = financials.data.categories[category];
  return (
    <p data-testid="reserve-position">
      {category} reserve {moneyText(figures.reserve)}: paid {moneyText(figures.paid)}, awaiting approval{' '}
      {moneyText(figures.awaiting_approval)}, outstanding {moneyText(figures.outstanding)}
    </p>
  );
}

function DecisionForm({ item }: { item: QueueItem }) {
  const session = useSession();
  const invalidate = useInvalidate();
  const { payment } = item;
  const [rationale, setRationale] = useState('');
  const [refused, setRefused] = useState<string | null>(null);
  const decide = useMutation({
    mutationFn: async (body: Decision) => {
      const { error } = await claimChanges(payment.claim_id, session).decidePayment(payment.payment_id, body);
      if (error) throw new Error(problemDetail(error, 'The decision could not be recorded'));
    },
    onSuccess: () => invalidate(queueKeys.approvals(), claimKeys.financials(payment.claim_id), claimKeys.payments(payment.claim_id)),
  });
  const id = (what: string) => `${what}-${payment.payment_id}`;
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // The API requires a rationale for either decision; say so before sending.
    if (rationale.trim() === '') return setRefused('Give the rationale for your decision.');
    setRefused(null);
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    decide.mutate({ decision: submitter?.value === 'rejected' ? 'rejected' : 'approved', rationale });
  };
  return (
    <form onSubmit={onSubmit} noValidate aria-label={`Decide the payment of ${moneyText(payment.amount)} to ${payment.payee.name}`}>
      <label htmlFor={id('rationale')}>Rationale (required)</label>
      <textarea
        id={id('rationale')}
        value={rationale}
        aria-invalid={refused !== null}
        aria-describedby={refused ? id('refused') : undefined}
        onChange={(e) => setRationale(e.target.value)}
      />
      {refused && (
        <p id={id('refused')} className="error" role="alert">
          {refused}
        </p>
      )}
      <button type="submit" name="decision" value="approved" disabled={decide.isPending}>
        Approve
      </button>
      <button type="submit" name="decision" value="rejected" className="secondary" disabled={decide.isPending}>
        Reject
      </button>
      <ErrorAlert error={decide.error} />
    </form>
  );
}

/** /workbench/approvals — payments awaiting approval across claims, oldest first; decide those within your limit. */
export function ApprovalQueuePage() {
  usePageTitle('Payment approvals');
  const queue = useApprovalQueue();
  const items = queue.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <main>
      <h1>Payment approvals</h1>
      <p>Payments above their requester&apos;s limit wait here for someone else whose limit covers them.</p>
      <ErrorAlert error={queue.error} />
      {queue.data && items.length === 0 && <p>No payment is waiting for approval.</p>}
      <ul aria-label="Payments awaiting approval, oldest first" className="approval-queue">
        {items.map((item) => (
          <li key={item.payment.payment_id} data-testid="approval">
            <h2>
              {moneyText(item.payment.amount)} to {item.payment.payee.name} ({item.payment.payee.kind})
            </h2>
            <p>
              {item.payment.cost_category} by {item.payment.method === 'eft' ? 'EFT' : 'check'}: {item.payment.memo} · requested by{' '}
              <strong>{item.payment.requested_by}</strong> (limit {moneyText(item.payment.authority_limit)}) on{' '}
              <time dateTime={item.payment.requested_at}>{new Date(item.payment.requested_at).toLocaleString('en-GB')}</time> ·{' '}
              <Link to={`/workbench/claims/${item.payment.claim_id}`}>Open the claim</Link>
            </p>
            <ReservePosition item={item} />
            {item.you_may_decide ? <DecisionForm item={item} /> : <p data-testid="why-not">You may not decide it: {item.why_not}</p>}
          </li>
        ))}
      </ul>
      {queue.hasNextPage && (
        <button type="button" className="secondary" onClick={() => void queue.fetchNextPage()}>
          More payments
        </button>
      )}
    </main>
  );
}
