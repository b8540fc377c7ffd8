/**
 * Money as the platform holds it: a decimal string with at most two decimals and its ISO 4217 currency,
 * `numeric(18,2)` in the database, and whole cents as BigInt in between. No floating point anywhere.
 */
export interface Money {
  amount: string;
  currency: string;
}

/** What `numeric(18,2)` holds: up to 16 digits before the point and 2 after. */
export const AMOUNT_PATTERN = '^(0|[1-9][0-9]{0,15})(\\.[0-9]{1,2})?$';
const AMOUNT = new RegExp(AMOUNT_PATTERN);
/** A value read from the database (`numeric` as text, maybe negative or with more decimals from a sum). */
const DECIMAL = /^(-)?([0-9]+)(?:\.([0-9]+))?$/;

export const moneySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['amount', 'currency'],
  properties: {
    amount: {
      type: 'string',
      pattern: AMOUNT_PATTERN,
      description: 'A non-negative decimal string with at most 2 decimals (at most 9999999999999999.99), never a number',
    },
    currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217' },
  },
} as const;

/** "1234.5" → 123450n. The string has passed AMOUNT_PATTERN, or comes from the database as numeric text. */
export function toCents(value: string): bigint {
  const match = DECIMAL.exec(value.trim());
  if (!match) throw new Error(`not a decimal amount: ${value}`);
  const [, sign, whole, fraction = ''] = match;
  if (/[1-9]/.test(fraction.slice(2))) throw new Error(`more than two decimals: ${value}`);
  const cents = BigInt(whole) * 100n + BigInt(fraction.slice(0, 2).padEnd(2, '0'));
  return sign ? -cents : cents;
}

/** 123450n → "1234.50". */
export function fromCents(cents: bigint): string {
  const sign = cents < 0n ? '-' : '';
  const magnitude = cents < 0n ? -cents : cents;
  return `${sign}${magnitude / 100n}.${String(magnitude % 100n).padStart(2, '0')}`;
}

/** Whether an API amount is one this service stores (the schema checks it too; this is for config). */
export function isAmount(value: string): boolean {
  return AMOUNT.test(value);
}
