/**
 * A claim's service-level deadlines, the calendar they count in, and when one of them is breached.
 * Dates a person promises ("by 2026-12-31") count in the claim's IANA time zone when it has one, in UTC
 * otherwise: the promise holds until the end of that day there.
 */

/** The deadlines of an open claim (the database's CHECK on deadline_breaches.deadline accepts exactly these). */
export const DEADLINES = ['acknowledgement', 'first_contact', 'next_update'] as const;
export type Deadline = (typeof DEADLINES)[number];

/** The claims column holding each deadline's due moment. */
export const DEADLINE_DUE_COLUMN = {
  acknowledgement: 'acknowledge_by',
  first_contact: 'first_contact_due',
  next_update: 'next_update_due',
} as const satisfies Record<Deadline, string>;

/**
 * What still has to happen for each deadline to be met: the acknowledgement reaches the claimant (a
 * delivery of the claim handed over or served on the portal), an adjuster contacts the claimant (a status
 * update not written by the system), the promised update is posted (which moves `next_update_due`). The
 * first two are marked on the claim by triggers when they happen (migration 0014), so that the sweep's
 * partial indexes hold only the claims still unmet.
 */
const UNMET = {
  acknowledgement: 'claims.acknowledgement_delivered_at IS NULL',
  first_contact: 'claims.first_contact_made_at IS NULL',
  next_update: 'TRUE',
} as const satisfies Record<Deadline, string>;

/**
 * SQL condition (on `claims`): the claim is open, the deadline has passed and it is still unmet. "Passed"
 * is as of the statement's start: a volatile clock_timestamp() cannot bound an index scan, so each sweep
 * read the whole index of open claims and compared every due moment.
 */
export function openBreachCondition(deadline: Deadline): string {
  return `(claims.stage <> 'closed' AND claims.${DEADLINE_DUE_COLUMN[deadline]} <= statement_timestamp() AND ${UNMET[deadline]})`;
}

/** SQL condition: any of the claim's deadlines is breached. */
export const ANY_OPEN_BREACH = `(${DEADLINES.map(openBreachCondition).join(' OR ')})`;

/**
 * Building an Intl.DateTimeFormat costs far more than using one: one per kind and time zone the runtime
 * knows (only a zone that builds is kept; zone names are case-insensitive, so any spelling of one shares it).
 */
function cachedFormat(cache: Map<string, Intl.DateTimeFormat>, zone: string, build: (zone: string) => Intl.DateTimeFormat) {
  const key = zone.toLowerCase();
  let format = cache.get(key);
  if (!format) {
    format = build(zone);
    cache.set(key, format);
  }
  return format;
}

const calendarDates = new Map<string, Intl.DateTimeFormat>();
const wallClocks = new Map<string, Intl.DateTimeFormat>();

/** True for a time zone name the runtime's IANA database knows ("Europe/Madrid", "UTC"). */
export function isTimeZone(zone: string): boolean {
  if (zone.length > 64) return false;
  try {
    calendarDate(zone);
    return true;
  } catch {
    return false;
  }
}

const calendarDate = (zone: string) =>
  cachedFormat(
    calendarDates,
    zone,
    (timeZone) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }),
  );

/** The calendar date (YYYY-MM-DD) of `moment` in `zone` (UTC when null). */
export function dateIn(zone: string | null, moment = new Date()): string {
  return calendarDate(zone ?? 'UTC').format(moment);
}

/** `date` (YYYY-MM-DD) plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  const moment = new Date(`${date}T00:00:00Z`);
  moment.setUTCDate(moment.getUTCDate() + days);
  return moment.toISOString().slice(0, 10);
}

/** How far `zone`'s wall clock is ahead of UTC at `moment`, in milliseconds. */
function offsetMs(zone: string, moment: Date): number {
  const wallClock = cachedFormat(
    wallClocks,
    zone,
    (timeZone) =>
      new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      }),
  );
  const parts = wallClock.formatToParts(moment);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return wall - Math.floor(moment.getTime() / 1000) * 1000;
}

/** The first instant of `date` in `zone` (UTC when null); a day starting in a DST gap starts when the clock jumps. */
export function startOfDayIn(date: string, zone: string | null): Date {
  const wallMidnight = Date.parse(`${date}T00:00:00Z`);
  if (!zone) return new Date(wallMidnight);
  // The offset at the guessed instant may differ from the offset at midnight (DST change that day): settle it in two steps.
  const first = wallMidnight - offsetMs(zone, new Date(wallMidnight));
  return new Date(wallMidnight - offsetMs(zone, new Date(first)));
}

/** The moment a promise "by `date`" has passed: the start of the next day in the claim's zone. */
export function promiseDueAt(date: string, zone: string | null): Date {
  return startOfDayIn(addDays(date, 1), zone);
}
