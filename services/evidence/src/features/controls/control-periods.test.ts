import { currentPeriod } from './control-periods';

describe('the current period of a control, in UTC', () => {
  it.each([
    ['daily', '2026-11-23T23:59:59.999Z', '2026-11-23', '2026-11-23'],
    ['weekly: a Monday starts its ISO week', '2026-11-23T00:00:00Z', '2026-11-23', '2026-11-29'],
    ['weekly: a Sunday ends its ISO week', '2026-11-29T23:00:00Z', '2026-11-23', '2026-11-29'],
    ['weekly: an ISO week across the new year', '2027-01-01T12:00:00Z', '2026-12-28', '2027-01-03'],
    ['monthly: February of a leap year', '2028-02-10T00:00:00Z', '2028-02-01', '2028-02-29'],
    ['quarterly: the last day of a quarter', '2026-09-30T23:59:59Z', '2026-07-01', '2026-09-30'],
    ['quarterly: the fourth quarter', '2026-11-23T10:00:00Z', '2026-10-01', '2026-12-31'],
    ['annual', '2026-11-23T10:00:00Z', '2026-01-01', '2026-12-31'],
  ] as const)('%s', (frequency, now, start, end) => {
    expect(currentPeriod(frequency.split(':')[0] as Parameters<typeof currentPeriod>[0], new Date(now))).toEqual({
      period_start: start,
      period_end: end,
    });
  });

  it('takes the UTC date, not the local one, just before midnight UTC', () => {
    expect(currentPeriod('daily', new Date('2026-12-31T23:30:00-00:00'))).toEqual({ period_start: '2026-12-31', period_end: '2026-12-31' });
    expect(currentPeriod('annual', new Date('2027-01-01T00:30:00+01:00'))).toEqual({
      period_start: '2026-01-01',
      period_end: '2026-12-31',
    });
  });
});
