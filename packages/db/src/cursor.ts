import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * Reads a query's rows a batch at a time through a server-side cursor: memory holds one batch however
 * many rows match, and every batch comes from the same snapshot (no OFFSET rescans, no keyset on
 * timestamps that JavaScript would round). A cursor lives inside a transaction, so `trx` must be one.
 */
export async function* inBatches<Row>(trx: Knex, query: Knex.QueryBuilder, batchSize: number): AsyncGenerator<Row[]> {
  if (!trx.isTransaction) throw new Error('inBatches needs a transaction: a cursor lives inside one');
  const cursor = `batches_${randomUUID().replace(/-/g, '')}`;
  const { sql, bindings } = query.toSQL();
  await trx.raw(`DECLARE ${cursor} NO SCROLL CURSOR FOR ${sql}`, bindings);
  let closed = false;
  try {
    for (;;) {
      const { rows } = (await trx.raw(`FETCH FORWARD ${Number(batchSize)} FROM ${cursor}`)) as { rows: Row[] };
      if (rows.length > 0) yield rows;
      if (rows.length < batchSize) break;
    }
    await trx.raw(`CLOSE ${cursor}`);
    closed = true;
  } finally {
    // Left early (the consumer stopped, or a query failed): the cursor ends with its transaction anyway;
    // closing it here only frees it sooner, and must not hide the error that got us here.
    if (!closed) await trx.raw(`CLOSE ${cursor}`).catch(() => undefined);
  }
}

/**
 * Walks a keyset-paginated query a page at a time: `fetchAfter(key)` returns up to `pageSize` items
 * after `key` in key order, and the walk ends at a short page. The next page is requested before the
 * current one is handed out, so the database reads it while the caller works; memory holds at most two
 * pages. Empty pages are not yielded.
 */
export async function* keysetPages<Item, Key>(
  fetchAfter: (key: Key) => Promise<Item[]>,
  keyOf: (item: Item) => Key,
  startAfter: Key,
  pageSize: number,
): AsyncGenerator<Item[]> {
  let page = await fetchAfter(startAfter);
  for (;;) {
    const next = page.length < pageSize ? undefined : fetchAfter(keyOf(page[page.length - 1]));
    next?.catch(() => undefined); // a failure surfaces where the page is awaited, not as an unhandled rejection
    if (page.length > 0) yield page;
    if (!next) return;
    page = await next;
  }
}
