import { addDays, dateIn, promiseDueAt } from './claim-deadlines';

/** True when a calendar date (YYYY-MM-DD) is a real date (2026-02-30 is not). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** True when a real calendar date is today or later in the claim's time zone (UTC when it has none). */
export function isTodayOrLater(date: string, now = new Date(), zone: string | null = null): boolean {
  return isCalendarDate(date) && date >= dateIn(zone, now);
}

/**
 * The moment the next update is due: the end of the promised `expected_next_update_by` day in the claim's
 * time zone, or, when the adjuster promised nothing, the end of the day `cadenceDays` from today there.
 * Every open claim thus always has a promise that can be broken.
 */
export function nextUpdateDueAt(expectedNextUpdateBy: string | null, zone: string | null, cadenceDays: number, now = new Date()): Date {
  return promiseDueAt(expectedNextUpdateBy ?? addDays(dateIn(zone, now), cadenceDays), zone);
}
