import { normaliseSubject, sameSubject, subjectKey } from './subject';

describe('a subject as the platform holds it (normaliseSubject, at authentication)', () => {
  it('is NFKC-normalised and trimmed', () => {
    expect(normaliseSubject(' alice ')).toBe('alice');
    expect(normaliseSubject('ａｌｉｃｅ')).toBe('alice');
    expect(normaliseSubject('alic\u0065\u0301')).toBe('alic\u00e9');
  });

  it.each([
    ['empty once trimmed', ' \u00a0 '],
    ['a NUL', 'alice\u0000'],
    ['a tab inside', 'ali\tce'],
    ['a zero-width space', 'alice\u200b'],
    ['a zero-width joiner', 'al\u200dice'],
    ['a right-to-left override', '\u202eecila'],
    ['a line separator inside', 'ali\u2028ce'],
    ['a Cyrillic look-alike beside Latin', 'ali\u0441e'],
    ['a Greek look-alike beside Latin', 'alic\u03b5'],
  ])('names nobody when it holds %s', (_what, raw) => {
    expect(normaliseSubject(raw)).toBeUndefined();
  });

  it('keeps a subject written wholly in another script, and e-mail-like or URL-like subjects', () => {
    expect(normaliseSubject('\u0430\u043b\u0438\u0441\u0430')).toBe('\u0430\u043b\u0438\u0441\u0430');
    expect(normaliseSubject('alice@example.com')).toBe('alice@example.com');
    expect(normaliseSubject('auth0|5f7c8ec7c33c6c004bbafe82')).toBe('auth0|5f7c8ec7c33c6c004bbafe82');
  });
});

describe('one person for segregation of duties (sameSubject)', () => {
  it.each([
    ['in capitals', 'ALICE'],
    ['with a combining accent', 'alic\u0065\u0301'],
    ['with a precomposed accent', 'alic\u00e9'],
    ['in fullwidth letters', 'ａｌｉｃｅ'],
    ['with a dotless i', 'al\u0131ce'],
  ])('counts alice %s as alice', (_how, other) => {
    expect(sameSubject(normaliseSubject(other)!, 'alice')).toBe(true);
    expect(subjectKey(normaliseSubject(other)!)).toBe('alice');
  });

  it.each([
    ['Cyrillic', '\u0430\u0441\u0435', 'ace'],
    ['Cyrillic capitals', '\u0410\u0421\u0415', 'ace'],
    ['Greek', '\u03bf\u03ba\u03b9', 'oki'],
    ['Armenian', '\u0570\u0585\u0578', 'hon'],
  ])('counts a subject written wholly in %s look-alikes as the Latin one it passes for', (_script, lookalike, latin) => {
    expect(normaliseSubject(lookalike)).toBe(lookalike);
    expect(sameSubject(lookalike, latin)).toBe(true);
  });

  it('tells two people apart', () => {
    expect(sameSubject('alice', 'alicia')).toBe(false);
    expect(sameSubject('alice', 'bob')).toBe(false);
  });
});
