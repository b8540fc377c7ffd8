import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@platform/testing';
import { appendOnlySql, createDatabase, isEmbedded, migrate, type Database, type Migration } from './database';
import { inBatches, keysetPages } from './cursor';
import { withTransactional } from './transactional';
import { writeTogether } from './one-statement';

/** Each migration records that it ran in `migration_runs`, so a test sees how often each one ran. */
const migrations: Migration[] = [
  {
    name: '0001_ledger',
    sql: `CREATE TABLE migration_runs (name text NOT NULL);
      INSERT INTO migration_runs VALUES ('0001_ledger');
      CREATE TABLE ledger (id uuid PRIMARY KEY, note text NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
      ${appendOnlySql('ledger')}`,
  },
  {
    name: '0002_accounts',
    sql: "CREATE TABLE accounts (id uuid PRIMARY KEY, name text NOT NULL); INSERT INTO migration_runs VALUES ('0002_accounts')",
  },
];
const added: Migration = { name: '0003_notes', sql: "CREATE TABLE notes (body text); INSERT INTO migration_runs VALUES ('0003_notes')" };

async function migrationRuns(db: Database): Promise<Record<string, number>> {
  const rows: { name: string; runs: string }[] = await db('migration_runs').select('name').count({ runs: '*' }).groupBy('name');
  return Object.fromEntries(rows.map((row) => [row.name, Number(row.runs)]));
}

async function expectRefused(work: Promise<unknown>, operation: string): Promise<void> {
  await expect(work).rejects.toMatchObject({ message: expect.stringContaining(`ledger is append-only: ${operation} is not allowed`) });
}

describe('on PostgreSQL', () => {
  let database: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    database = await createTestDatabase('dbpkg', []);
    db = createDatabase({ url: database.url, poolMax: 4 });
    await migrate(db, migrations);
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  describe('migrate', () => {
    it('runs each migration once, and a second run changes nothing', async () => {
      await migrate(db, migrations);
      await Promise.all([migrate(db, migrations), migrate(db, migrations)]);
      expect(await migrationRuns(db)).toEqual({ '0001_ledger': 1, '0002_accounts': 1 });
      const applied = await db('knex_migrations').orderBy('id').pluck('name');
      expect(applied).toEqual(['0001_ledger', '0002_accounts']);
      expect(isEmbedded(db)).toBe(false);
    });

    it('runs only the migrations added since the last run', async () => {
      await migrate(db, [...migrations, added]);
      await migrate(db, [...migrations, added]);
      expect(await migrationRuns(db)).toEqual({ '0001_ledger': 1, '0002_accounts': 1, '0003_notes': 1 });
    });

    it('applies nothing of a migration that fails part-way', async () => {
      const failing: Migration = { name: '0004_broken', sql: 'CREATE TABLE half_done (id text); SELECT * FROM no_such_table' };
      await expect(migrate(db, [...migrations, added, failing])).rejects.toThrow(/no_such_table/);
      expect(await db.schema.hasTable('half_done')).toBe(false);
      expect(await db('knex_migrations').where({ name: '0004_broken' }).first()).toBeUndefined();
    });
  });

  describe('appendOnlySql', () => {
    let id: string;
    beforeAll(async () => {
      id = randomUUID();
      await db('ledger').insert({ id, note: 'first' });
    });

    it('lets rows be inserted and read', async () => {
      await db('ledger').insert({ id: randomUUID(), note: 'second' });
      expect(await db('ledger').where({ id }).first()).toMatchObject({ note: 'first' });
    });

    it('refuses UPDATE', async () => {
      await expectRefused(db('ledger').where({ id }).update({ note: 'changed' }), 'UPDATE');
      expect(await db('ledger').where({ id }).first()).toMatchObject({ note: 'first' });
    });

    it('refuses DELETE', async () => {
      await expectRefused(db('ledger').where({ id }).delete(), 'DELETE');
      await expectRefused(db('ledger').delete(), 'DELETE');
      expect(await db('ledger').where({ id }).first()).toBeDefined();
    });

    it('refuses TRUNCATE', async () => {
      await expectRefused(db.raw('TRUNCATE ledger'), 'TRUNCATE');
      expect(Number((await db('ledger').count({ n: '*' }))[0].n)).toBeGreaterThan(0);
    });

    it('reports the refusal as insufficient_privilege (42501)', async () => {
      await expect(db('ledger').update({ note: 'x' })).rejects.toMatchObject({ code: '42501' });
    });
  });

  describe('withTransactional', () => {
    const accounts = (handle: Database) => ({
      open: (name: string) => handle('accounts').insert({ id: randomUUID(), name }),
      record: (note: string) => handle('ledger').insert({ id: randomUUID(), note }),
      count: async (name: string) => Number((await handle('accounts').where({ name }).count({ n: '*' }))[0].n),
    });

    it('rolls back everything the use case wrote when it throws', async () => {
      const service = withTransactional(accounts, db);
      await expect(
        service.transactional(async (tx) => {
          await tx.open('rolled-back');
          await tx.record('rolled-back entry');
          expect(await tx.count('rolled-back')).toBe(1);
          throw new Error('the use case failed');
        }),
      ).rejects.toThrow('the use case failed');
      expect(await service.count('rolled-back')).toBe(0);
      expect(await db('ledger').where({ note: 'rolled-back entry' }).first()).toBeUndefined();
    });

    it('commits everything together when the use case succeeds and returns its result', async () => {
      const service = withTransactional(accounts, db);
      const result = await service.transactional(async (tx) => {
        await tx.open('committed');
        await tx.record('committed entry');
        return 'done';
      });
      expect(result).toBe('done');
      expect(await service.count('committed')).toBe(1);
      expect(await db('ledger').where({ note: 'committed entry' }).first()).toBeDefined();
    });

    it('keeps writes invisible to other connections until the transaction commits', async () => {
      const service = withTransactional(accounts, db);
      await service.transactional(async (tx) => {
        await tx.open('in-flight');
        expect(await service.count('in-flight')).toBe(0);
      });
      expect(await service.count('in-flight')).toBe(1);
    });
  });
  describe('writeTogether', () => {
    it('runs the writes as one statement and returns the rows of its select', async () => {
      const id = randomUUID();
      const rows = await writeTogether<{ answer: number }>(
        db,
        [db('accounts').insert({ id, name: 'together' }), db('ledger').insert({ id: randomUUID(), note: `opened ${id}` })],
        'SELECT ?::int AS answer',
        [42],
      );
      expect(rows).toEqual([{ answer: 42 }]);
      expect(await db('accounts').where({ id }).first()).toEqual({ id, name: 'together' });
      expect(
        await db('ledger')
          .where({ note: `opened ${id}` })
          .first(),
      ).toBeDefined();
    });

    it('applies none of the writes when one of them fails', async () => {
      const id = randomUUID();
      await db('accounts').insert({ id, name: 'first' });
      const note = `never ${id}`;
      await expect(
        writeTogether(db, [db('ledger').insert({ id: randomUUID(), note }), db('accounts').insert({ id, name: 'duplicate' })]),
      ).rejects.toThrow(/duplicate key/);
      expect(await db('ledger').where({ note }).first()).toBeUndefined();
    });
  });

  describe('inBatches', () => {
    const names = Array.from({ length: 25 }, (_, i) => `batch-${String(i).padStart(2, '0')}`);
    beforeAll(async () => {
      await db('accounts').insert(names.map((name) => ({ id: randomUUID(), name })));
    });
    const query = (handle: Database) => handle('accounts').where('name', 'like', 'batch-%').orderBy('name').select('name');

    it('yields every row once, in order, a batch of the given size at a time', async () => {
      const batches = await db.transaction(async (trx) => {
        const seen: string[][] = [];
        for await (const batch of inBatches<{ name: string }>(trx, query(trx), 10)) seen.push(batch.map((row) => row.name));
        return seen;
      });
      expect(batches.map((batch) => batch.length)).toEqual([10, 10, 5]);
      expect(batches.flat()).toEqual(names);
    });

    it('leaves the transaction usable when the reader stops early', async () => {
      const count = await db.transaction(async (trx) => {
        for await (const batch of inBatches<{ name: string }>(trx, query(trx), 4)) {
          expect(batch).toHaveLength(4);
          break;
        }
        return Number((await trx('accounts').where('name', 'like', 'batch-%').count({ n: '*' }))[0].n);
      });
      expect(count).toBe(25);
    });

    it('refuses to run outside a transaction', async () => {
      await expect(inBatches(db, query(db), 10).next()).rejects.toThrow(/needs a transaction/);
    });
  });
});

describe('keysetPages', () => {
  const numbers = Array.from({ length: 7 }, (_, i) => i + 1);
  const fetchAfter = (calls: number[]) => async (after: number) => {
    calls.push(after);
    return numbers.filter((n) => n > after).slice(0, 3);
  };

  it('yields every page in key order and stops at a short page', async () => {
    const calls: number[] = [];
    const pages: number[][] = [];
    for await (const page of keysetPages(fetchAfter(calls), (n) => n, 0, 3)) pages.push(page);
    expect(pages).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(calls).toEqual([0, 3, 6]);
  });

  it('requests the next page before handing out the current one, but not after a short page', async () => {
    const calls: number[] = [];
    const full = keysetPages(fetchAfter(calls), (n) => n, 0, 3);
    expect((await full.next()).value).toEqual([1, 2, 3]);
    expect(calls).toEqual([0, 3]);
    const shortCalls: number[] = [];
    const short = keysetPages(fetchAfter(shortCalls), (n) => n, 3, 4);
    expect((await short.next()).value).toEqual([4, 5, 6]);
    expect(shortCalls).toEqual([3]);
  });

  it('yields no empty page when the last full page was the end', async () => {
    const pages: number[][] = [];
    for await (const page of keysetPages(
      async (after: number) => numbers.filter((n) => n > after),
      (n) => n,
      0,
      7,
    ))
      pages.push(page);
    expect(pages).toEqual([numbers]);
  });
});
