import { randomUUID } from 'node:crypto';
import { createTestDatabase, TEST_RUNTIME_ROLE, type TestDatabase } from '@platform/testing';
import { appendOnlySql, createDatabase, migrate, type Database, type Migration } from './database';
import { grantRuntimePrivileges } from './privileges';

const migrations: Migration[] = [
  { name: '0001_ledger', sql: `CREATE TABLE ledger (id uuid PRIMARY KEY, note text NOT NULL); ${appendOnlySql('ledger')}` },
  { name: '0002_accounts', sql: 'CREATE TABLE accounts (id uuid PRIMARY KEY, name text NOT NULL)' },
];
const later: Migration[] = [
  { name: '0003_journal', sql: `CREATE TABLE journal (id uuid PRIMARY KEY, entry text NOT NULL); ${appendOnlySql('journal')}` },
  { name: '0004_notes', sql: 'CREATE TABLE notes (id uuid PRIMARY KEY, body text NOT NULL)' },
];

const PRIVILEGES = ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER'] as const;

/** What the runtime role may do on `table`, as PostgreSQL answers it. */
async function privilegesOn(db: Database, table: string): Promise<string[]> {
  const held: string[] = [];
  for (const privilege of PRIVILEGES) {
    const { rows } = await db.raw('SELECT has_table_privilege(?, ?, ?) AS held', [TEST_RUNTIME_ROLE, table, privilege]);
    if (rows[0].held) held.push(privilege);
  }
  return held;
}

describe('the runtime role on PostgreSQL (grantRuntimePrivileges)', () => {
  let database: TestDatabase;
  let owner: Database;
  let runtime: Database;

  beforeAll(async () => {
    database = await createTestDatabase('dbpriv', []);
    owner = createDatabase({ url: database.url, poolMax: 2 });
    runtime = createDatabase({ url: database.runtimeUrl, poolMax: 2 });
    await migrate(owner, migrations);
    await grantRuntimePrivileges(owner, TEST_RUNTIME_ROLE);
    await owner('ledger').insert({ id: randomUUID(), note: 'first' });
  });
  afterAll(async () => {
    await runtime?.destroy();
    await owner?.destroy();
    await database?.drop();
  });

  it('grants SELECT and INSERT alone on an append-only table, the four DML privileges elsewhere, and only reads of the migrations bookkeeping', async () => {
    expect(await privilegesOn(owner, 'ledger')).toEqual(['SELECT', 'INSERT']);
    expect(await privilegesOn(owner, 'accounts')).toEqual(['SELECT', 'INSERT', 'UPDATE', 'DELETE']);
    expect(await privilegesOn(owner, 'knex_migrations')).toEqual(['SELECT']);
    expect(await privilegesOn(owner, 'knex_migrations_lock')).toEqual(['SELECT']);
  });

  it('lets the runtime role append to and read an append-only table', async () => {
    const id = randomUUID();
    await runtime('ledger').insert({ id, note: 'appended' });
    expect(await runtime('ledger').where({ id }).first()).toMatchObject({ note: 'appended' });
  });

  it('refuses the runtime role UPDATE, DELETE and TRUNCATE on an append-only table, before any trigger runs', async () => {
    const denied = { code: '42501', message: expect.stringContaining('permission denied for table ledger') };
    await expect(runtime('ledger').update({ note: 'changed' })).rejects.toMatchObject(denied);
    await expect(runtime('ledger').delete()).rejects.toMatchObject(denied);
    await expect(runtime.raw('TRUNCATE ledger')).rejects.toMatchObject(denied);
    await expect(runtime('ledger').forUpdate().first()).rejects.toMatchObject(denied);
    expect(await owner('ledger').where({ note: 'first' }).first()).toBeDefined();
  });

  it('refuses the runtime role ALTER TABLE, disabling or dropping the triggers, and dropping the table', async () => {
    const notOwner = { code: '42501', message: expect.stringMatching(/must be owner of (table|relation) ledger/) };
    await expect(runtime.raw('ALTER TABLE ledger DISABLE TRIGGER ALL')).rejects.toMatchObject(notOwner);
    await expect(runtime.raw('ALTER TABLE ledger DISABLE TRIGGER ledger_no_update_delete')).rejects.toMatchObject(notOwner);
    await expect(runtime.raw('ALTER TABLE ledger ADD COLUMN forged text')).rejects.toMatchObject(notOwner);
    await expect(runtime.raw('DROP TRIGGER ledger_no_update_delete ON ledger')).rejects.toMatchObject(notOwner);
    await expect(runtime.raw('DROP TABLE ledger')).rejects.toMatchObject(notOwner);
    await expect(runtime.raw('ALTER TABLE ledger OWNER TO CURRENT_USER')).rejects.toMatchObject(notOwner);
    const { rows } = await owner.raw(
      "SELECT count(*)::int AS enabled FROM pg_trigger WHERE tgrelid = 'ledger'::regclass AND tgenabled = 'O'",
    );
    expect(rows[0].enabled).toBe(2);
  });

  it('refuses the runtime role the other ways around triggers and grants: replica mode, new tables, new functions on the schema', async () => {
    await expect(runtime.raw('SET session_replication_role = replica')).rejects.toMatchObject({ code: '42501' });
    await expect(runtime.raw('CREATE TABLE shadow (id int)')).rejects.toMatchObject({
      code: '42501',
      message: expect.stringContaining('permission denied for schema public'),
    });
    await expect(runtime.raw('GRANT UPDATE ON ledger TO CURRENT_USER')).resolves.toBeDefined(); // a no-op: PostgreSQL only warns
    expect(await privilegesOn(owner, 'ledger')).toEqual(['SELECT', 'INSERT']);
  });

  it('covers tables added by later migrations once the step runs again, append-only ones with SELECT and INSERT alone', async () => {
    await migrate(owner, [...migrations, ...later]);
    await expect(runtime('notes').insert({ id: randomUUID(), body: 'x' })).rejects.toMatchObject({ code: '42501' });
    const granted = await grantRuntimePrivileges(owner, TEST_RUNTIME_ROLE);
    expect(granted).toEqual({
      readWrite: ['accounts', 'notes'],
      appendOnly: ['journal', 'ledger'],
      readOnly: ['knex_migrations', 'knex_migrations_lock'],
    });
    await runtime('notes').insert({ id: randomUUID(), body: 'x' });
    await runtime('journal').insert({ id: randomUUID(), entry: 'x' });
    expect(await privilegesOn(owner, 'journal')).toEqual(['SELECT', 'INSERT']);
    expect(await privilegesOn(owner, 'notes')).toEqual(['SELECT', 'INSERT', 'UPDATE', 'DELETE']);
  });

  it('runs safely from replicas starting together', async () => {
    const second = createDatabase({ url: database.url, poolMax: 1 });
    try {
      await Promise.all([
        grantRuntimePrivileges(owner, TEST_RUNTIME_ROLE),
        grantRuntimePrivileges(second, TEST_RUNTIME_ROLE),
        grantRuntimePrivileges(owner, TEST_RUNTIME_ROLE),
      ]);
    } finally {
      await second.destroy();
    }
    expect(await privilegesOn(owner, 'ledger')).toEqual(['SELECT', 'INSERT']);
  });

  it('refuses to grant to a role grants cannot restrict: a superuser, or the owner of a table', async () => {
    await expect(grantRuntimePrivileges(owner, 'postgres')).rejects.toThrow(/superuser or owns/);
    await owner.raw('ALTER TABLE accounts OWNER TO ??', [TEST_RUNTIME_ROLE]);
    try {
      await expect(grantRuntimePrivileges(owner, TEST_RUNTIME_ROLE)).rejects.toThrow(/owns \(or may act as the owner of\)/);
    } finally {
      await owner.raw('ALTER TABLE accounts OWNER TO CURRENT_USER');
    }
    await expect(grantRuntimePrivileges(owner, 'no_such_role_here')).rejects.toThrow(/does not exist/);
  });

  it('lets the runtime role start when no migration is pending, and refuses it a pending one', async () => {
    await expect(migrate(runtime, [...migrations, ...later])).resolves.toBeUndefined();
    const pending: Migration = { name: '0005_more', sql: 'CREATE TABLE more (id int)' };
    await expect(migrate(runtime, [...migrations, ...later, pending])).rejects.toThrow(/permission denied/);
  });
});
