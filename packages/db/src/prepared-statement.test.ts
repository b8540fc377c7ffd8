import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@platform/testing';
import { createDatabase, migrate, type Database } from './database';
import { preparedStatement } from './prepared-statement';

const migrations = [{ name: '0001_notes', sql: 'CREATE TABLE notes (id uuid PRIMARY KEY, body text NOT NULL)' }];
const notesAbout = preparedStatement<{ id: string; body: string }>(
  'notes_about',
  'SELECT id, body FROM notes WHERE body LIKE ? ORDER BY body',
);

async function behavesAsAnyQuery(db: Database) {
  const [first, second] = [randomUUID(), randomUUID()];
  await db('notes').insert([
    { id: first, body: 'claim one' },
    { id: second, body: 'claim two' },
  ]);
  // the second call runs the statement prepared by the first
  expect(await notesAbout(db, ['claim%'])).toEqual([
    { id: first, body: 'claim one' },
    { id: second, body: 'claim two' },
  ]);
  expect(await notesAbout(db, ['%two'])).toEqual([{ id: second, body: 'claim two' }]);
  await db.transaction(async (trx) => {
    const uncommitted = randomUUID();
    await trx('notes').insert({ id: uncommitted, body: 'claim three' });
    expect(await notesAbout(trx, ['%three'])).toEqual([{ id: uncommitted, body: 'claim three' }]);
    await trx.rollback();
  });
  expect(await notesAbout(db, ['%three'])).toEqual([]);
}

describe('preparedStatement', () => {
  describe('on PostgreSQL', () => {
    let database: TestDatabase;
    let db: Database;
    beforeAll(async () => {
      database = await createTestDatabase('prepared', []);
      db = createDatabase({ url: database.url, poolMax: 2 });
      await migrate(db, migrations);
    });
    afterAll(async () => {
      await db?.destroy();
      await database?.drop();
    });

    it('returns the rows of its binding values, and runs on the transaction it is given', () => behavesAsAnyQuery(db));
  });
  // On embedded PGlite it is knex.raw (see preparedStatement); tests/e2e/claimant-self-service.test.ts reads through it there.
});
