import type { components } from '../api/schema';

export type RunSummary = components['schemas']['RunList']['items'][number];
export type RunStatus = RunSummary['status'];

export const RUN_STATUSES: readonly RunStatus[] = ['open', 'in_review', 'approved', 'rejected'];

export const STATUS_LABELS: Record<RunStatus, string> = {
  open: 'Open',
  in_review: 'In review',
  approved: 'Approved',
  rejected: 'Rejected',
};

/** A run's period as the API holds it: both ends are calendar dates, inclusive. */
export function periodText(run: { period_start: string; period_end: string }): string {
  return `${run.period_start} – ${run.period_end}`;
}
