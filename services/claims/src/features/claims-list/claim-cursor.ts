import { createHash } from 'node:crypto';
import { decodeCursorWithExtra, encodeCursor as encodeNewestFirst, invalidCursor } from '@platform/http';

/**
 * Keyset position after a claim: its `created_at` (microseconds, UTC) and id, newest first; in a search
 * also its rank (best first) and a digest of the search, so a cursor only continues the search it came from.
 */
export interface ClaimCursor {
  created_at: string;
  id: string;
  search?: { rank: number; query: string };
}

const queryDigest = (query: string) => createHash('sha256').update(query).digest('base64url').slice(0, 12);

/** Opaque to callers: the newest-first cursor, plus `"r": rank, "q": digest of the search` in a search. */
export function encodeCursor(cursor: ClaimCursor): string {
  const search = cursor.search ? { r: cursor.search.rank, q: queryDigest(cursor.search.query) } : {};
  return encodeNewestFirst({ created_at: cursor.created_at, id: cursor.id }, search);
}

/** `query` is the normalised search of this request (undefined without `q`): a cursor of another search, or none, is 400. */
export function decodeCursor(value: string, query?: string): ClaimCursor {
  const { position, extra } = decodeCursorWithExtra(value);
  const { r, q, ...unknown } = extra as { r?: unknown; q?: unknown };
  if (Object.keys(unknown).length > 0) throw invalidCursor();
  if (query === undefined) {
    if (r !== undefined || q !== undefined) throw invalidCursor();
    return position;
  }
  if (typeof r !== 'number' || !(r >= 0 && r <= 1) || q !== queryDigest(query)) throw invalidCursor();
  return { ...position, search: { rank: r, query } };
}
