import { CLOSING_REASONS, type ClosingReason } from '@platform/claims-domain';
import { useState, type FormEvent } from 'react';
import { humanise } from '../QueuePage';
import { ErrorAlert } from '../claim/claim-file';
import { usePublishRetentionPolicy, useRetentionPolicy, type RetentionPolicy } from './privacy-api';

/** The retention policy in force (how long after closing a claim's personal data is kept, per closing reason), and a new version. */
export function RetentionPolicySection() {
  const policy = useRetentionPolicy();
  return (
    <section aria-labelledby="retention-policy">
      <h2 id="retention-policy">Retention policy</h2>
      <ErrorAlert error={policy.error} />
      {policy.data === undefined && !policy.error && <p role="status">Loading the retention policy…</p>}
      {policy.data && <PolicyTable policy={policy.data} />}
      {policy.data && <PublishForm current={policy.data} />}
    </section>
  );
}

function PolicyTable({ policy }: { policy: RetentionPolicy }) {
  return (
    <>
      <p data-testid="retention-version">
        Version {policy.version}, published by {policy.published_by} on {policy.published_at.slice(0, 10)}: {policy.reason}
      </p>
      <table className="queue" aria-label="Retention after closing, per closing reason">
        <thead>
          <tr>
            <th scope="col">Closing reason</th>
            <th scope="col">Kept after closing</th>
          </tr>
        </thead>
        <tbody>
          {CLOSING_REASONS.map((closing) => (
            <tr key={closing}>
              <th scope="row">{humanise(closing)}</th>
              <td>{policy.retention_days[closing]} days</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function PublishForm({ current }: { current: RetentionPolicy }) {
  const publish = usePublishRetentionPolicy(current);
  const [days, setDays] = useState<Record<ClosingReason, string>>(
    () =>
      Object.fromEntries(CLOSING_REASONS.map((reason) => [reason, String(current.retention_days[reason])])) as Record<
        ClosingReason,
        string
      >,
  );
  const [reason, setReason] = useState('');
  const [published, setPublished] = useState<string | null>(null);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const kept = Object.fromEntries(CLOSING_REASONS.map((closing) => [closing, Number(days[closing])])) as Record<ClosingReason, number>;
    publish.mutate(
      { retention_days: kept, reason: reason.trim() },
      {
        onSuccess: (version) => {
          setReason('');
          setPublished(`Version ${version} published.`);
        },
      },
    );
  };
  return (
    <form onSubmit={onSubmit} aria-label="Publish a new retention policy version" className="privacy-policy-form">
      <fieldset>
        <legend>Days kept after closing</legend>
        {CLOSING_REASONS.map((closing) => (
          <div key={closing}>
            <label htmlFor={`retention-${closing}`}>{humanise(closing)}</label>
            <input
              id={`retention-${closing}`}
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              required
              value={days[closing]}
              onChange={(event) => setDays({ ...days, [closing]: event.target.value })}
            />
          </div>
        ))}
      </fieldset>
      <label htmlFor="retention-reason">Why this version</label>
      <input id="retention-reason" value={reason} onChange={(event) => setReason(event.target.value)} required maxLength={500} />
      <button type="submit" disabled={publish.isPending}>
        Publish new version
      </button>
      <p role="status">{published}</p>
      <ErrorAlert error={publish.error} />
    </form>
  );
}
