import { compile } from '@platform/http';
import { normaliseLanguageTag } from '../../shared/language-tag';
import { computeAdequacy } from './status-update-adequacy';
import { isCalendarDate, isTodayOrLater, nextUpdateDueAt } from '../../shared/dates';
import { statusUpdateRequestSchema } from './status-updates-schemas';

const contact = { phone: '+18005550100', email: 'claims@example.com' };
const cta = { label: 'Upload', url: 'https://claims.example.com/u' };

describe('computeAdequacy (weights: expected_next_update_by 3, cta 2 when something is asked, contact 2, portal_url 1 on portal, language 1)', () => {
  it('scores a complete update 1 with nothing missing', () => {
    expect(
      computeAdequacy({
        channel: 'portal',
        what_we_need_from_you: 'photos',
        expected_next_update_by: '2026-12-01',
        cta,
        contact,
        portal_url: 'https://p.example.com',
        language: 'en',
      }),
    ).toEqual({
      adequacy_score: 1,
      adequacy_missing: [],
    });
  });

  it('scores an empty email update 0 and names what is missing, in table order', () => {
    expect(computeAdequacy({ channel: 'email', what_we_need_from_you: 'photos' })).toEqual({
      adequacy_score: 0,
      adequacy_missing: ['expected_next_update_by', 'cta', 'contact', 'language'],
    });
  });

  it('leaves out cta when nothing is asked of the customer, and portal_url off the portal channel', () => {
    expect(
      computeAdequacy({ channel: 'sms', what_we_need_from_you: null, expected_next_update_by: '2026-12-01', contact, language: null }),
    ).toEqual({
      adequacy_score: 0.83, // (3 + 2) / (3 + 2 + 1)
      adequacy_missing: ['language'],
    });
  });

  it('rounds to two decimals', () => {
    expect(
      computeAdequacy({ channel: 'email', what_we_need_from_you: 'photos', expected_next_update_by: '2026-12-01', contact, language: null })
        .adequacy_score,
    ).toBe(0.63); // 5/8
  });
});

describe('the status update request schema', () => {
  const valid = { channel: 'email', stage: 'triage', what_happened: 'a', what_happens_next: 'b' };
  it('refuses the computed adequacy fields and unknown fields', () => {
    const validate = compile(statusUpdateRequestSchema);
    expect(validate(valid)).toBe(true);
    expect(validate({ ...valid, adequacy_score: 1 })).toBe(false);
    expect(validate({ ...valid, adequacy_missing: [] })).toBe(false);
    expect(validate({ ...valid, extra: 1 })).toBe(false);
  });
  it('refuses blank text and NUL characters', () => {
    const validate = compile(statusUpdateRequestSchema);
    expect(validate({ ...valid, what_happened: '   ' })).toBe(false);
    expect(validate({ ...valid, what_happens_next: 'a\u0000b' })).toBe(false);
  });
  it('needs http(s) URLs (the service refuses http off the platform’s own origin) and an E.164 phone', () => {
    const validate = compile(statusUpdateRequestSchema);
    expect(validate({ ...valid, portal_url: 'ftp://p.example.com' })).toBe(false);
    expect(validate({ ...valid, cta: { label: 'x', url: 'javascript:alert(1)' } })).toBe(false);
    expect(validate({ ...valid, contact: { ...contact, phone: '555-0100' } })).toBe(false);
    expect(validate({ ...valid, portal_url: 'https://p.example.com', cta, contact })).toBe(true);
  });
});

describe('date and language helpers', () => {
  it('knows real calendar dates', () => {
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('2026-02-30')).toBe(false);
    expect(isCalendarDate('2026-2-3')).toBe(false);
  });
  it('compares with today in UTC', () => {
    const now = new Date('2026-11-22T10:00:00Z');
    expect(isTodayOrLater('2026-11-22', now)).toBe(true);
    expect(isTodayOrLater('2026-11-21', now)).toBe(false);
  });
  it("compares with today in the claim's time zone when it has one", () => {
    const now = new Date('2026-11-22T23:30:00Z'); // already the 23rd in Madrid
    expect(isTodayOrLater('2026-11-22', now, 'Europe/Madrid')).toBe(false);
    expect(isTodayOrLater('2026-11-22', now, 'America/New_York')).toBe(true);
  });
  it("puts next_update_due at the end of the promised day, in UTC or in the claim's time zone", () => {
    expect(nextUpdateDueAt('2026-11-30', null, 5).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(nextUpdateDueAt('2026-12-31', 'Europe/Madrid', 5).toISOString()).toBe('2026-12-31T23:00:00.000Z');
    expect(nextUpdateDueAt('2026-07-14', 'America/Los_Angeles', 5).toISOString()).toBe('2026-07-15T07:00:00.000Z');
    // across a DST change: Madrid moves to summer time on 2026-03-29
    expect(nextUpdateDueAt('2026-03-28', 'Europe/Madrid', 5).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(nextUpdateDueAt('2026-03-29', 'Europe/Madrid', 5).toISOString()).toBe('2026-03-29T22:00:00.000Z');
  });
  it('promises an update after the default cadence when the adjuster gives no date (never none)', () => {
    const now = new Date('2026-11-22T12:00:00Z');
    expect(nextUpdateDueAt(null, null, 5, now).toISOString()).toBe('2026-11-28T00:00:00.000Z');
    expect(nextUpdateDueAt(null, 'Pacific/Auckland', 5, now).toISOString()).toBe('2026-11-28T11:00:00.000Z'); // the 23rd there already
  });
  it('canonicalises BCP 47 tags and refuses what is not one', () => {
    expect(normaliseLanguageTag('pt-br')).toBe('pt-BR');
    expect(normaliseLanguageTag('en')).toBe('en');
    expect(normaliseLanguageTag('not a tag')).toBeUndefined();
  });
});
