import { UUID_PATTERN, isStorableDateTime, problems } from '@platform/http';

/** Keyset position after a row listed newest first: its `created_at` (microseconds, UTC) and its id. */
export interface NewestFirstPosition {
  created_at: string;
  id: string;
}

/** The one form the lists issue; whether it is a real instant is isStorableDateTime's to say. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** SQL giving a timestamptz column in that form (JavaScript's Date would round away the microseconds). */
export const cursorTimestampSql = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Opaque to callers: base64url of `{ "c": created_at, "i": id }`. */
export function encodeCursor(position: NewestFirstPosition): string {
  return Buffer.from(JSON.stringify({ c: position.created_at, i: position.id }), 'utf8').toString('base64url');
}

/** A cursor this service issued, or a 400 naming `cursor` (never a database error on a crafted one). */
export function decodeCursor(value: string): NewestFirstPosition {
  const invalid = () => problems.badRequest('cursor is not a cursor this service issued', [{ pointer: '/cursor', message: 'is invalid' }]);
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(value)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const { c, i } = (parsed ?? {}) as { c?: unknown; i?: unknown };
  if (typeof c !== 'string' || !TIMESTAMP.test(c) || !isStorableDateTime(c) || typeof i !== 'string' || !UUID_PATTERN.test(i))
    throw invalid();
  return { created_at: c, id: i.toLowerCase() };
}

/** One page from `limit + 1` rows: the first `limit`, and the cursor after the last when more follow. */
export function pageOf<Row, Item>(
  rows: Row[],
  limit: number,
  item: (row: Row) => Item,
  position: (row: Row) => NewestFirstPosition,
): { items: Item[]; next_cursor: string | null } {
  const page = rows.slice(0, limit);
  return { items: page.map(item), next_cursor: rows.length > limit ? encodeCursor(position(page[page.length - 1])) : null };
}
