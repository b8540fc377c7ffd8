import { UUID_PATTERN, isStorableDateTime, problems } from '@platform/http';

/** Keyset position after a claim: its `created_at` (microseconds, UTC) and id, newest first. */
export interface ClaimCursor {
  created_at: string;
  id: string;
}

/** The one form the service issues (microseconds, UTC); whether it is a real instant is isStorableDateTime's to say. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** Opaque to callers: base64url of `{ "c": created_at, "i": id }`. */
export function encodeCursor(cursor: ClaimCursor): string {
  return Buffer.from(JSON.stringify({ c: cursor.created_at, i: cursor.id }), 'utf8').toString('base64url');
}

export function decodeCursor(value: string): ClaimCursor {
  const invalid = () => problems.badRequest('cursor is not a cursor this service issued', [{ pointer: '/cursor', message: 'is invalid' }]);
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(value)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const { c, i } = (parsed ?? {}) as { c?: unknown; i?: unknown };
  if (typeof c !== 'string' || !TIMESTAMP.test(c) || !isStorableDateTime(c) || typeof i !== 'string' || !UUID_PATTERN.test(i)) throw invalid();
  return { created_at: c, id: i };
}
