/** True when a calendar date (YYYY-MM-DD) is a real date (2026-02-30 is not). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Today's calendar date in UTC, YYYY-MM-DD. */
export function todayUtc(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** True when a real calendar date is today (UTC) or later. */
export function isTodayOrLater(date: string, now = new Date()): boolean {
  return isCalendarDate(date) && date >= todayUtc(now);
}

/** The moment a promised `expected_next_update_by` date has passed: the start of the next UTC day. */
export function nextUpdateDueAt(expectedNextUpdateBy: string | null): Date | null {
  if (!expectedNextUpdateBy) return null;
  const due = new Date(`${expectedNextUpdateBy}T00:00:00Z`);
  due.setUTCDate(due.getUTCDate() + 1);
  return due;
}
