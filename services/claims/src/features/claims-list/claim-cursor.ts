import { createHash } from 'node:crypto';
import { decodeCursorWithExtra, encodeCursor as encodeNewestFirst, invalidCursor } from '@platform/http';
import { LOSS_TYPES } from '../../shared/claim-vocabulary';
import { DEFAULT_SORT, type ClaimSort, type SortColumn } from './claims-list-schemas';

/**
 * Keyset position after a claim: its `created_at` (microseconds, UTC) and id, newest first; in a search
 * also its rank (best first) and a digest of the search, so a cursor only continues the search it came from.
 */
export interface ClaimCursor {
  created_at: string;
  id: string;
  search?: { rank: number; query: string };
  /** In a list sorted by another column than created_at: the sort and this claim's value of it (as text, null sorted as the sentinel). */
  sorted?: { sort: ClaimSort; value: string };
}

/** What a sort value of each column looks like (the store casts it: anything else would be a database error, so it is 400 here). */
const SORT_VALUE: Record<SortColumn, RegExp> = {
  created_at: /^$/, // the position's own created_at is the value
  estimated_amount: /^(?:-1|\d{1,15}(?:\.\d{1,2})?)$/,
  severity: /^(?:-1|\d{1,3})$/,
  loss_type: new RegExp(`^(?:${LOSS_TYPES.join('|')})$`),
};
export const sortColumnOf = (sort: ClaimSort): SortColumn => sort.replace(/^-/, '') as SortColumn;

const queryDigest = (query: string) => createHash('sha256').update(query).digest('base64url').slice(0, 12);

/** Opaque to callers: the newest-first cursor, plus `"r": rank, "q": digest of the search` in a search. */
export function encodeCursor(cursor: ClaimCursor): string {
  const search = cursor.search ? { r: cursor.search.rank, q: queryDigest(cursor.search.query) } : {};
  const sorted = cursor.sorted ? { o: cursor.sorted.sort, s: cursor.sorted.value } : {};
  return encodeNewestFirst({ created_at: cursor.created_at, id: cursor.id }, { ...search, ...sorted });
}

/**
 * `query` is the normalised search of this request (undefined without `q`), `sort` its order: a cursor of
 * another search or another sort, or none, is 400.
 */
export function decodeCursor(value: string, query?: string, sort: ClaimSort = DEFAULT_SORT): ClaimCursor {
  const { position, extra } = decodeCursorWithExtra(value);
  const { r, q, o, s, ...unknown } = extra as { r?: unknown; q?: unknown; o?: unknown; s?: unknown };
  if (Object.keys(unknown).length > 0) throw invalidCursor();
  if (sort === DEFAULT_SORT) {
    if (o !== undefined || s !== undefined) throw invalidCursor();
  } else if (o !== sort || typeof s !== 'string' || !SORT_VALUE[sortColumnOf(sort)].test(s)) {
    throw invalidCursor();
  }
  if (query === undefined) {
    if (r !== undefined || q !== undefined) throw invalidCursor();
    return sort === DEFAULT_SORT ? position : { ...position, sorted: { sort, value: s as string } };
  }
  if (typeof r !== 'number' || !(r >= 0 && r <= 1) || q !== queryDigest(query)) throw invalidCursor();
  return { ...position, search: { rank: r, query } };
}
