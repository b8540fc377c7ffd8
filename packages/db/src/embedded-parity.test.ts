import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { canRunEmbeddedInJest, createTestDatabase, runEmbeddedCases, type TestDatabase } from '@platform/testing';
import { createDatabase, isEmbedded, migrate, type Database, type Migration } from './database';

const migrations: Migration[] = [
  { name: '0001_items', sql: 'CREATE TABLE items (id uuid PRIMARY KEY, name text NOT NULL, hits integer NOT NULL DEFAULT 0)' },
];
const CASES = 9;

/** Resolves to `true` once `work` settled, `false` if it is still pending after `ms`. */
const settledWithin = (work: Promise<unknown>, ms: number) =>
  Promise.race([work.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

/**
 * Where embedded PGlite differs from PostgreSQL, the adapter in database.ts hides it or the code does not
 * rely on it: the same cases run on both (the embedded ones in a child jest, see runEmbeddedCases).
 */
const modes = canRunEmbeddedInJest() ? (['postgres', 'embedded'] as const) : (['postgres'] as const);

describe.each(modes)('the database on %s', (mode) => {
  let db: Database;
  let database: TestDatabase | undefined;
  let embeddedDir: string | undefined;

  beforeAll(async () => {
    if (mode === 'postgres') {
      database = await createTestDatabase('dbparity', migrations);
      db = createDatabase({ url: database.url, poolMax: 4 });
    } else {
      embeddedDir = mkdtempSync(path.join(tmpdir(), 'db-parity-'));
      db = createDatabase({ embeddedDir });
      await migrate(db, migrations);
    }
    expect(isEmbedded(db)).toBe(mode === 'embedded');
  }, 60000);
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
    if (embeddedDir) rmSync(embeddedDir, { recursive: true, force: true });
  });

  const seed = async (...names: string[]) => {
    const rows = names.map((name) => ({ id: randomUUID(), name }));
    await db('items').insert(rows);
    return rows.map((row) => row.id);
  };

  it('a delete answers the number of rows it deleted (knex-pglite once answered a result object: every upload 503)', async () => {
    const ids = await seed('a', 'b');
    expect(await db('items').whereIn('id', ids).delete()).toBe(2);
    expect(await db('items').whereIn('id', ids).del()).toBe(0);
    const [id] = await seed('c');
    await db.transaction(async (trx) => expect(await trx('items').where({ id }).delete()).toBe(1));
  });

  it('an update and an increment answer the number of rows they changed', async () => {
    const ids = await seed('d', 'e');
    expect(await db('items').whereIn('id', ids).update({ name: 'changed' })).toBe(2);
    expect(await db('items').where({ id: ids[0] }).increment('hits', 3)).toBe(1);
    expect(await db('items').where({ id: randomUUID() }).update({ name: 'nobody' })).toBe(0);
  });

  it('returning answers the rows written, for an insert, an update and a delete', async () => {
    const id = randomUUID();
    expect(await db('items').insert({ id, name: 'f' }).returning(['id', 'name'])).toEqual([{ id, name: 'f' }]);
    expect(await db('items').where({ id }).update({ hits: 7 }).returning('hits')).toEqual([{ hits: 7 }]);
    expect(await db('items').where({ id }).delete().returning('name')).toEqual([{ name: 'f' }]);
  });

  it('first answers one row or undefined, pluck an array of values, raw its rows, count a row of counts', async () => {
    const [id] = await seed('g');
    expect(await db('items').where({ id }).first('name', 'hits')).toEqual({ name: 'g', hits: 0 });
    expect(await db('items').where({ id: randomUUID() }).first('name')).toBeUndefined();
    expect(await db('items').where({ id }).pluck('name')).toEqual(['g']);
    expect((await db.raw('SELECT name FROM items WHERE id = ?', [id])).rows).toEqual([{ name: 'g' }]);
    expect(Number((await db('items').where({ id }).count({ n: '*' }))[0].n)).toBe(1);
  });

  it('runs SQL of several statements in one raw call, as migrations are written, every statement of it', async () => {
    const table = `several_${randomUUID().replace(/-/g, '')}`;
    await db.raw(`CREATE TABLE ${table} (v int); INSERT INTO ${table} VALUES (1); INSERT INTO ${table} VALUES (2)`);
    expect(await db(table).orderBy('v').pluck('v')).toEqual([1, 2]);
  });

  it('FOR UPDATE SKIP LOCKED never hands a row a running transaction holds to another one', async () => {
    const [id] = await seed('locked');
    const holder = await db.transaction();
    await holder('items').where({ id }).forUpdate().first('id');
    const claim = db.transaction((trx) => trx('items').where({ id }).forUpdate().skipLocked().pluck('id'));
    if (mode === 'postgres') {
      expect(await claim).toEqual([]); // skipped at once
    } else {
      // One connection: the second transaction starts only once the first has ended, so it never meets the lock.
      expect(await settledWithin(claim, 300)).toBe(false);
    }
    await holder.commit();
    if (mode === 'embedded') expect(await claim).toEqual([id]);
  });

  it('pg_advisory_xact_lock is held to the end of the transaction, and another waits for it', async () => {
    const key = Math.floor(Math.random() * 1e9);
    const holder = await db.transaction();
    await holder.raw('SELECT pg_advisory_xact_lock(?)', [key]);
    const waiter = db.transaction((trx) => trx.raw('SELECT pg_advisory_xact_lock(?)', [key]));
    expect(await settledWithin(waiter, 300)).toBe(false);
    await holder.commit();
    await waiter;
    const { rows } = await db.transaction((trx) => trx.raw('SELECT pg_try_advisory_xact_lock(?) AS locked', [key]));
    expect(rows).toEqual([{ locked: true }]);
  });

  it('pg_notify in a transaction (as the outbox does) is delivered once it commits, never when it rolls back', async () => {
    const channel = `parity_${randomUUID().replace(/-/g, '')}`;
    const received: string[] = [];
    let unlisten: () => Promise<void>;
    if (mode === 'postgres') {
      // The relay of another process LISTENs on a connection of its own (relay.ts).
      const client = new Client({ connectionString: database!.url });
      await client.connect();
      client.on('notification', (message) => received.push(message.payload ?? ''));
      await client.query(`LISTEN ${channel}`);
      unlisten = () => client.end();
    } else {
      // No other process shares an embedded database: the relay is woken in-process (outboxSignals); PGlite delivers to listeners too.
      const pglite = (db.client as { pglite: { listen(c: string, cb: (payload: string) => void): Promise<() => Promise<void>> } }).pglite;
      unlisten = await pglite.listen(channel, (payload) => received.push(payload));
    }
    try {
      await db.transaction(async (trx) => {
        await trx.raw('SELECT pg_notify(?, ?)', [channel, 'committed']);
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(received).toEqual([]);
      });
      await db
        .transaction(async (trx) => {
          await trx.raw('SELECT pg_notify(?, ?)', [channel, 'rolled back']);
          throw new Error('roll back');
        })
        .catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(received).toEqual(['committed']);
    } finally {
      await unlisten();
    }
  });

  it('a failed statement rolls its transaction back and leaves the database usable', async () => {
    const id = randomUUID();
    await expect(
      db.transaction(async (trx) => {
        await trx('items').insert({ id, name: 'h' });
        await trx.raw('SELECT * FROM no_such_table');
      }),
    ).rejects.toThrow(/no_such_table/);
    expect(await db('items').where({ id }).first('id')).toBeUndefined();
  });
});

if (!canRunEmbeddedInJest())
  describe('the database on embedded PGlite', () => {
    it(`passes the same ${CASES} cases (run in a jest that PGlite can load in)`, async () => {
      const result = await runEmbeddedCases(__filename, 'the database on embedded');
      expect(result.passed === CASES && result.failed === 0 ? 'all passed' : result.output).toBe('all passed');
    }, 240000);
  });
