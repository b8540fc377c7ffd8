/**
 * SQL giving a timestamptz column as JavaScript's `Date#toISOString` gives the value node-postgres reads
 * from it (UTC, milliseconds truncated): for answers PostgreSQL builds as JSON itself.
 */
export const isoTimestampSql = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
