import type { Knex } from 'knex';
import { isEmbedded } from './database';

interface PgConnection {
  query(config: { name: string; text: string; values: readonly unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * A read on a hot path as a named prepared statement: PostgreSQL parses and plans it once per pooled
 * connection, and each call skips knex's query builder and runner (`?` placeholders are numbered once,
 * here). Inside a transaction, and on embedded PGlite (whose single connection knex holds), it runs
 * through knex.raw on `db` as any other query, so it never escapes a transaction.
 */
export function preparedStatement<Row>(name: string, sql: string) {
  let text: string | undefined;
  return async (db: Knex, values: readonly unknown[]): Promise<Row[]> => {
    if (db.isTransaction || isEmbedded(db)) return ((await db.raw(sql, values as Knex.RawBinding[])) as { rows: Row[] }).rows;
    text ??= db
      .raw(sql, values as Knex.RawBinding[])
      .toSQL()
      .toNative().sql;
    const connection = (await db.client.acquireConnection()) as PgConnection;
    try {
      return (await connection.query({ name, text, values })).rows as Row[];
    } finally {
      await db.client.releaseConnection(connection);
    }
  };
}
