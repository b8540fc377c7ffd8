import { fromCents, isAmount, toCents } from './money';

describe('money in cents, no floating point', () => {
  it.each([
    ['0', 0n, '0.00'],
    ['0.1', 10n, '0.10'],
    ['1234.5', 123450n, '1234.50'],
    ['99999999999999.99', 9999999999999999n, '99999999999999.99'],
    ['9999999999999999.99', 999999999999999999n, '9999999999999999.99'],
  ])('%s is %s cents and reads back as %s', (text, cents, back) => {
    expect(isAmount(text)).toBe(true);
    expect(toCents(text)).toBe(cents);
    expect(fromCents(cents)).toBe(back);
  });

  it('adds exactly where floating point would not (0.1 + 0.2, the largest amounts)', () => {
    expect(fromCents(toCents('0.1') + toCents('0.2'))).toBe('0.30');
    expect(fromCents(toCents('99999999999999.99') + toCents('0.01'))).toBe('100000000000000.00');
    expect(fromCents(toCents('10.00') - toCents('10.01'))).toBe('-0.01');
  });

  it('reads numeric text from the database, a sum with more zero decimals included', () => {
    expect(toCents('12.3400')).toBe(1234n);
    expect(toCents('-5.00')).toBe(-500n);
    expect(() => toCents('1.001')).toThrow(/two decimals/);
  });

  it.each(['1.001', '-1', '01', '1e3', '1.', '.5', ' 1', '10000000000000000', ''])('refuses %j as an amount', (text) => {
    expect(isAmount(text)).toBe(false);
  });
});
