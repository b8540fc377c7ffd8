import type { components } from '../api/client';

/** `{ amount: "1234.50", currency: "USD" }`: the amount is a decimal string, never a floating-point number. */
export type Money = components['schemas']['Financials']['authority_limit'];

export const moneyText = (money: Money) => `${money.amount} ${money.currency}`;

/** What numeric(18,2) holds. */
export const AMOUNT = /^(0|[1-9][0-9]{0,15})(\.[0-9]{1,2})?$/;

/** "1234.5" → 123450n. */
export function centsOf(amount: string): bigint {
  const [whole, fraction = ''] = amount.split('.');
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
}
