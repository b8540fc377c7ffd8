import { problems } from './problem';
import { UUID_PATTERN, isStorableDateTime } from './validation';

/** Keyset position after a row listed newest first: its `created_at` (microseconds, UTC) and its id. */
export interface NewestFirstPosition {
  created_at: string;
  id: string;
}

/** The one form the lists issue; whether it is a real instant is isStorableDateTime's to say. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** SQL giving a timestamptz column in that form (JavaScript's Date would round away the microseconds). */
export const cursorTimestampSql = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The 400 for a cursor no list of the platform issued (never a database error on a crafted one). */
export const invalidCursor = () =>
  problems.badRequest('cursor is not a cursor this service issued', [{ pointer: '/cursor', message: 'is invalid' }]);

/** Opaque to callers: base64url of `{ "c": created_at, "i": id }`, plus what a list adds of its own (`extra`). */
export function encodeCursor(position: NewestFirstPosition, extra: Record<string, unknown> = {}): string {
  return Buffer.from(JSON.stringify({ c: position.created_at, i: position.id, ...extra }), 'utf8').toString('base64url');
}

/** A cursor a list issued: its position, and the fields the list added (`extra`, for the list to check). */
export function decodeCursorWithExtra(value: string): { position: NewestFirstPosition; extra: Record<string, unknown> } {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(value)) throw invalidCursor();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalidCursor();
  const { c, i, ...extra } = parsed as { c?: unknown; i?: unknown };
  if (typeof c !== 'string' || !TIMESTAMP.test(c) || !isStorableDateTime(c) || typeof i !== 'string' || !UUID_PATTERN.test(i)) {
    throw invalidCursor();
  }
  return { position: { created_at: c, id: i.toLowerCase() }, extra };
}

/** A plain newest-first cursor: one with anything beyond the position is not one a plain list issued. */
export function decodeCursor(value: string): NewestFirstPosition {
  const { position, extra } = decodeCursorWithExtra(value);
  if (Object.keys(extra).length > 0) throw invalidCursor();
  return position;
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
