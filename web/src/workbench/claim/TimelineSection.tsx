import type { ClaimFile } from './claim-file';

export function TimelineSection({ file }: { file: ClaimFile }) {
  return (
    <section aria-labelledby="timeline">
      <h2 id="timeline">Timeline</h2>
      <ol className="history">
        {[...file.timeline].reverse().map((entry) => (
          <li key={entry.audit_id}>
            <time dateTime={entry.occurred_at}>{new Date(entry.occurred_at).toLocaleString('en-GB')}</time> ·{' '}
            <strong>{entry.action}</strong> by {entry.actor}
            {entry.reason && ` — ${entry.reason}`}
          </li>
        ))}
      </ol>
    </section>
  );
}
