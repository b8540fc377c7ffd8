import { problems } from '@platform/http';

const PHONE_LIKE = /^[+\d\s().-]+$/;

/**
 * The search as `claims.search_text` holds it: trimmed, lower-cased, inner white space collapsed; a phone
 * number (only digits and `+ ( ) . -`, spaces) reduced to its digits, as the column stores phones.
 * Fewer than 3 characters would match nearly every claim: 400.
 */
export function normaliseSearch(q: string): string {
  const text = q.trim().replace(/\s+/g, ' ').toLowerCase();
  const digits = text.replace(/\D/g, '');
  const search = PHONE_LIKE.test(text) && digits.length >= 3 ? digits : text;
  if (search.length < 3) throw problems.badRequest('q needs at least 3 characters', [{ pointer: '/q', message: 'must have at least 3 characters' }]);
  return search;
}

/** `search` as a LIKE pattern matching it anywhere (`%`, `_` and `\` taken literally). */
export function containsPattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
