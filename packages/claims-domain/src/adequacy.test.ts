import fc from 'fast-check';
import { computeAdequacy, type AdequacyInput } from './adequacy';
import { CHANNELS } from './vocabulary';

const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null });
const update: fc.Arbitrary<AdequacyInput> = fc.record({
  channel: fc.constantFrom(...CHANNELS),
  what_we_need_from_you: maybe(fc.string({ minLength: 1 })),
  expected_next_update_by: maybe(fc.constant('2099-01-15')),
  cta: maybe(fc.constant({ label: 'Send it', url: 'https://portal.example/x' })),
  contact: maybe(fc.constant({ phone: '+14155550111', email: 'sam@insurer.example' })),
  portal_url: maybe(fc.constant('https://portal.example/claims/x')),
  language: maybe(fc.constantFrom('en', 'es')),
});
const filled = {
  expected_next_update_by: '2099-01-15',
  cta: { label: 'Open', url: 'https://portal.example/y' },
  contact: { phone: '+14155550112', email: 'a@b.example' },
  portal_url: 'https://portal.example/z',
  language: 'en',
};
const SCORED = Object.keys(filled) as (keyof typeof filled)[];

describe('adequacy', () => {
  it('never falls when a scored field is filled in, and never lists a field that is given', () => {
    fc.assert(
      fc.property(update, fc.constantFrom(...SCORED), (draft, field) => {
        const before = computeAdequacy(draft);
        const after = computeAdequacy({ ...draft, [field]: filled[field] });
        expect(after.adequacy_score).toBeGreaterThanOrEqual(before.adequacy_score);
        expect(after.adequacy_missing).not.toContain(field);
        expect(after.adequacy_score).toBeGreaterThanOrEqual(0);
        expect(after.adequacy_score).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('asking something of the customer makes the call to action count, so asking without one lowers the score (CONTRACT §3)', () => {
    const base: AdequacyInput = { channel: 'email', expected_next_update_by: '2099-01-15', contact: filled.contact, language: 'en' };
    expect(computeAdequacy(base).adequacy_score).toBe(1);
    expect(computeAdequacy({ ...base, what_we_need_from_you: 'The police report' })).toEqual({
      adequacy_score: 0.75, // (3 + 2 + 1) / (3 + 2 + 2 + 1)
      adequacy_missing: ['cta'],
    });
  });

  it('with the call to action counted from the start (the composer meter), asking something of the customer never lowers the score', () => {
    fc.assert(
      fc.property(update, fc.string({ minLength: 1 }), (draft, need) => {
        const before = computeAdequacy({ ...draft, what_we_need_from_you: null }, ['cta']);
        const after = computeAdequacy({ ...draft, what_we_need_from_you: need }, ['cta']);
        expect(after).toEqual(before);
      }),
    );
  });
});
