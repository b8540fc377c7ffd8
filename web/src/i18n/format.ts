import type { Language } from './messages';

/**
 * The one place the portal turns dates, numbers and phone numbers into text, in the claimant's language
 * (Intl). Every date in the portal goes through `formatDate`, so each kind of date reads one way.
 */

const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A calendar date ("2026-11-20") reads as that day wherever the reader is; a moment ("2026-11-20T09:30:00Z")
 * reads as day and time in the reader's time zone.
 */
export function formatDate(language: Language, value: string): string {
  if (CALENDAR_DAY.test(value))
    return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${value}T00:00:00Z`));
  return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeStyle: 'short' }).format(new Date(value));
}

export function formatNumber(language: Language, value: number): string {
  return new Intl.NumberFormat(language).format(value);
}

/** An amount in cents of `currency` ("EUR"), as the language writes money. */
export function formatMoney(language: Language, cents: number, currency: string): string {
  return new Intl.NumberFormat(language, { style: 'currency', currency }).format(cents / 100);
}

/** A decimal-string amount (`{ amount: "1234.50", currency: "USD" }`) as the language writes money: Intl formats the string exactly, never through a float. */
export function formatAmount(language: Language, money: { amount: string; currency: string }): string {
  return new Intl.NumberFormat(language, { style: 'currency', currency: money.currency }).format(money.amount as `${number}`);
}

/**
 * An E.164 number grouped for reading ("+34600123456" → "+34 600 123 456"; North American numbers as
 * "+1 415 555 0100"); anything else is left as given. The `tel:` link keeps the E.164 form.
 */
export function formatPhone(phone: string): string {
  const nanp = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(phone);
  if (nanp) return `+1 ${nanp[1]} ${nanp[2]} ${nanp[3]}`;
  const match = /^\+(\d{2})(\d{3,})$/.exec(phone);
  if (!match) return phone;
  return `+${match[1]} ${match[2].match(/\d{1,3}/g)!.join(' ')}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}
