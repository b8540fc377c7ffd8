import type { Frequency } from './controls-schemas';

/** A period of dates, both inclusive (as a run's period_start and period_end). */
export interface Period {
  period_start: string;
  period_end: string;
}

/** The frequencies that have periods; `continuous` and `ad_hoc` have none, so they are never due. */
export const PERIODIC_FREQUENCIES = ['daily', 'weekly', 'monthly', 'quarterly', 'annual'] as const satisfies readonly Frequency[];
export type PeriodicFrequency = (typeof PERIODIC_FREQUENCIES)[number];

const DAY_MS = 86_400_000;
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The period of `frequency` that contains `now`, in UTC: the day; the ISO week (Monday to Sunday); the
 * calendar month; the calendar quarter (January, April, July, October); the calendar year.
 */
export function currentPeriod(frequency: PeriodicFrequency, now: Date): Period {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const today = Date.UTC(year, month, now.getUTCDate());
  const span = (start: number, end: number): Period => ({ period_start: isoDate(start), period_end: isoDate(end) });
  switch (frequency) {
    case 'daily':
      return span(today, today);
    case 'weekly': {
      const monday = today - ((now.getUTCDay() + 6) % 7) * DAY_MS;
      return span(monday, monday + 6 * DAY_MS);
    }
    case 'monthly':
      return span(Date.UTC(year, month, 1), Date.UTC(year, month + 1, 0));
    case 'quarterly': {
      const first = month - (month % 3);
      return span(Date.UTC(year, first, 1), Date.UTC(year, first + 3, 0));
    }
    case 'annual':
      return span(Date.UTC(year, 0, 1), Date.UTC(year, 11, 31));
  }
}

/** The current period of every periodic frequency at `now`. */
export const currentPeriods = (now: Date): Record<PeriodicFrequency, Period> =>
  Object.fromEntries(PERIODIC_FREQUENCIES.map((frequency) => [frequency, currentPeriod(frequency, now)])) as Record<
    PeriodicFrequency,
    Period
  >;
