import { problems } from '@platform/http';

const PHONE_LIKE = /^[+\d\s().-]+$/;

/** Accented Latin letters and their plain forms, folded in names and searches alike (foldSearch). */
export const ACCENTED = 'ÀÁÂÃÄÅàáâãäåÈÉÊËèéêëÌÍÎÏìíîïÒÓÔÕÖØòóôõöøÙÚÛÜùúûüÑñÇçÝýÿ';
export const PLAIN = 'AAAAAAaaaaaaEEEEeeeeIIIIiiiiOOOOOOooooooUUUUuuuuNnCcYyy';
const FOLD = new Map([...ACCENTED].map((c, i) => [c, PLAIN[i]]));

/** `text` trimmed, lower-cased, Latin accents folded, inner white space collapsed: as searches and the keyed name index compare names. */
export function foldSearch(text: string): string {
  return [...text.trim().replace(/\s+/g, ' ').toLowerCase()].map((c) => FOLD.get(c) ?? c).join('');
}

/**
 * The search as the claims list compares it: trimmed, lower-cased, accents folded, inner white space collapsed; a phone
 * number (only digits and `+ ( ) . -`, spaces) reduced to its digits, as the phone is compared.
 * Fewer than 3 characters would match nearly every claim: 400.
 */
export function normaliseSearch(q: string): string {
  const text = foldSearch(q);
  const digits = text.replace(/\D/g, '');
  const search = PHONE_LIKE.test(text) && digits.length >= 3 ? digits : text;
  if (search.length < 3)
    throw problems.badRequest('q needs at least 3 characters', [{ pointer: '/q', message: 'must have at least 3 characters' }]);
  return search;
}

/** A search that normaliseSearch reduced to a phone number's digits. */
export const DIGITS = /^\d+$/;

/** A LIKE pattern matching what starts with `search` (`%`, `_` and `\` taken literally). */
export function prefixPattern(search: string): string {
  return `${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `text` backwards (by code point): a phone's end as a prefix of its reversed digits, which an index serves. */
export function reverse(text: string): string {
  return [...text].reverse().join('');
}
