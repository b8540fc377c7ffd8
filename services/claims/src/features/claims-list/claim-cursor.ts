import { createHash } from 'node:crypto';
import { UUID_PATTERN, isStorableDateTime, problems } from '@platform/http';

/**
 * Keyset position after a claim: its `created_at` (microseconds, UTC) and id, newest first; in a search
 * also its rank (best first) and a digest of the search, so a cursor only continues the search it came from.
 */
export interface ClaimCursor {
  created_at: string;
  id: string;
  search?: { rank: number; query: string };
}

/** The one form the service issues (microseconds, UTC); whether it is a real instant is isStorableDateTime's to say. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

const queryDigest = (query: string) => createHash('sha256').update(query).digest('base64url').slice(0, 12);

/** Opaque to callers: base64url of `{ "c": created_at, "i": id }`, plus `"r": rank, "q": digest of the search` in a search. */
export function encodeCursor(cursor: ClaimCursor): string {
  const search = cursor.search ? { r: cursor.search.rank, q: queryDigest(cursor.search.query) } : {};
  return Buffer.from(JSON.stringify({ c: cursor.created_at, i: cursor.id, ...search }), 'utf8').toString('base64url');
}

/** `query` is the normalised search of this request (undefined without `q`): a cursor of another search, or none, is 400. */
export function decodeCursor(value: string, query?: string): ClaimCursor {
  const invalid = () => problems.badRequest('cursor is not a cursor this service issued', [{ pointer: '/cursor', message: 'is invalid' }]);
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(value)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const { c, i, r, q } = (parsed ?? {}) as { c?: unknown; i?: unknown; r?: unknown; q?: unknown };
  if (typeof c !== 'string' || !TIMESTAMP.test(c) || !isStorableDateTime(c) || typeof i !== 'string' || !UUID_PATTERN.test(i))
    throw invalid();
  if (query === undefined) {
    if (r !== undefined || q !== undefined) throw invalid();
    return { created_at: c, id: i };
  }
  if (typeof r !== 'number' || !(r >= 0 && r <= 1) || q !== queryDigest(query)) throw invalid();
  return { created_at: c, id: i, search: { rank: r, query } };
}
