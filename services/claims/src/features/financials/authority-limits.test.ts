import { authorityLimitOf, parseAuthorityLimits } from './authority-limits';

const caller = (sub: string, ...scopes: string[]) => ({ sub, scopes: new Set(scopes) });

describe('PAYMENT_AUTHORITY_LIMITS', () => {
  const limits = parseAuthorityLimits(['claims:write=5000', 'claims:decide=50000.50', 'user:lead-7=250000', 'user:cap=0']);

  it('gives the highest limit among the scopes held, a user entry first, and 0 without either', () => {
    expect(authorityLimitOf(limits, caller('alice', 'claims:read', 'claims:write'))).toBe(500000n);
    expect(authorityLimitOf(limits, caller('lead', 'claims:write', 'claims:decide'))).toBe(5000050n);
    expect(authorityLimitOf(limits, caller('lead-7', 'claims:write'))).toBe(25000000n);
    expect(authorityLimitOf(limits, caller('cap', 'claims:decide'))).toBe(0n);
    expect(authorityLimitOf(limits, caller('reader', 'claims:read'))).toBe(0n);
  });

  it('reads an empty list as no limits', () => {
    expect(authorityLimitOf(parseAuthorityLimits([]), caller('alice', 'claims:write'))).toBe(0n);
  });

  it.each([['claims:write'], ['claims:write=5k'], ['=5000'], ['user:=5'], ['claims:write=1.005'], ['claims:write=-1']])(
    'refuses %j, naming it',
    (entry) => {
      expect(() => parseAuthorityLimits(['claims:decide=1', entry])).toThrow(entry);
    },
  );

  it('refuses a scope or user named twice', () => {
    expect(() => parseAuthorityLimits(['claims:write=1', 'claims:write=2'])).toThrow('claims:write=2');
  });
});
