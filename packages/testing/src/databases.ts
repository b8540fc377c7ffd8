import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createDatabase, migrate, migrationChecksum, type Knex, type Migration } from '@platform/db';
import { DEFAULT_TEST_DATABASE_URL } from './infrastructure';

export function adminUrl(): string {
  return process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The login role services connect as in tests, as in production: it owns nothing and gets its grants from the service. */
export const TEST_RUNTIME_ROLE = 'platform_test_runtime';

let runtimeRoleReady: Promise<void> | undefined;

/** Creates the runtime role once per cluster; roles are cluster-global and jest workers race to create it. */
export function ensureRuntimeRole(): Promise<void> {
  runtimeRoleReady ??= admin(async (client) => {
    try {
      await client.query(`CREATE ROLE ${TEST_RUNTIME_ROLE} LOGIN PASSWORD '${TEST_RUNTIME_ROLE}'`);
    } catch (error) {
      // 42710: it exists; 23505: another worker created it at the same moment
      if (!['42710', '23505'].includes((error as { code?: string }).code ?? '')) throw error;
    }
  }).catch((error) => {
    runtimeRoleReady = undefined;
    throw error;
  });
  return runtimeRoleReady;
}

/** `url` with the test runtime role's credentials instead of the superuser's. */
export function asRuntimeRole(url: string): string {
  const parsed = new URL(url);
  parsed.username = TEST_RUNTIME_ROLE;
  parsed.password = TEST_RUNTIME_ROLE;
  return parsed.toString();
}

export interface TestDatabase {
  /** The superuser's connection string (the migration role in tests; fixtures tamper through it). */
  url: string;
  /** The same database as the runtime role, which owns nothing and has only what the grant step gives it. */
  runtimeUrl: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * A fresh database for one test file, cloned from a template migrated once per set of migrations.
 * The template's name is a digest of what the migrations execute (names and SQL), so any change to
 * them gets a new template.
 */
export async function createTestDatabase(service: string, migrations: Migration[]): Promise<TestDatabase> {
  const digest = createHash('sha256')
    .update(migrations.map((m) => `${m.name}:${migrationChecksum(m)}`).join('\n'))
    .digest('hex')
    .slice(0, 12);
  const template = `tpl_${service}_${digest}`;
  await admin(async (client) => {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [template]);
    try {
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
      if (!rowCount) {
        const building = `${template}_build_${randomBytes(3).toString('hex')}`;
        await client.query(`CREATE DATABASE ${building}`);
        const db = createDatabase({ url: withDatabase(adminUrl(), building), poolMax: 1 });
        try {
          await migrate(db, migrations);
        } finally {
          await db.destroy();
        }
        await client.query(`ALTER DATABASE ${building} RENAME TO ${template}`);
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [template]);
    }
  });
  const name = `test_${service}_${randomBytes(5).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  await ensureRuntimeRole();
  return {
    name,
    url: withDatabase(adminUrl(), name),
    runtimeUrl: asRuntimeRole(withDatabase(adminUrl(), name)),
    drop: () => admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/** A knex handle on a fresh test database; `cleanup` destroys the pool and drops the database. */
export async function openTestDatabase(
  service: string,
  migrations: Migration[],
): Promise<{ db: Knex; url: string; cleanup(): Promise<void> }> {
  const database = await createTestDatabase(service, migrations);
  const db = createDatabase({ url: database.url });
  return {
    db,
    url: database.url,
    cleanup: async () => {
      await db.destroy();
      await database.drop();
    },
  };
}

/** A table's storage parameters (`ALTER TABLE … SET (…)`) as PostgreSQL lists them, e.g. `autovacuum_vacuum_threshold=1000`. */
export async function tableStorageOptions(db: Knex, table: string): Promise<string[]> {
  const { rows } = await db.raw<{ rows: { reloptions: string[] | null }[] }>('SELECT reloptions FROM pg_class WHERE oid = ?::regclass', [
    table,
  ]);
  return rows[0].reloptions ?? [];
}
