import type { Knex } from 'knex';

/** A data-modifying query (INSERT, UPDATE, DELETE) built with knex and not yet run. */
export type PendingWrite = Knex.QueryBuilder;

/**
 * Runs several writes as one SQL statement, in one round trip: each becomes an item of a `WITH`, then
 * `select` (with `?` bindings) runs and its rows are returned. One statement commits whole or not at
 * all, and PostgreSQL checks foreign keys at its end, so a row may reference another written by the
 * same statement whatever their order. The writes see the database as it was before the statement: no
 * two of them may touch the same row.
 */
export async function writeTogether<Row = Record<string, unknown>>(
  db: Knex,
  writes: PendingWrite[],
  select = 'SELECT 1',
  selectBindings: readonly Knex.Value[] = [],
): Promise<Row[]> {
  const parts = writes.map((write) => write.toSQL());
  const sql = `WITH ${parts.map((part, index) => `w${index} AS (${part.sql})`).join(', ')} ${select}`;
  const bindings = [...parts.flatMap((part) => part.bindings), ...selectBindings];
  const { rows } = await db.raw<{ rows: Row[] }>(sql, bindings);
  return rows;
}
