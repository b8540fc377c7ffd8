/** How close a deadline is: the badge turns amber within a day of it and red once it has passed. */
export type DeadlineState = 'ok' | 'soon' | 'breached';

export const SOON_MS = 24 * 60 * 60 * 1000;

export function deadlineState(due: string, now = Date.now()): DeadlineState {
  const left = Date.parse(due) - now;
  if (left < 0) return 'breached';
  return left <= SOON_MS ? 'soon' : 'ok';
}

const LABELS: Record<DeadlineState, string> = { ok: 'On time', soon: 'Due soon', breached: 'Overdue' };

export function DeadlineBadge({ due, now }: { due: string | null | undefined; now?: number }) {
  if (!due) return <span className="badge badge--none">No deadline</span>;
  const state = deadlineState(due, now);
  return (
    <span className={`badge badge--${state}`}>
      {LABELS[state]} · <time dateTime={due}>{new Date(due).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })}</time>
    </span>
  );
}
