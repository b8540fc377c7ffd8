import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createDatabase, migrate, type Knex, type Migration } from '@platform/db';
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

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * A fresh database for one test file, cloned from a template migrated once per set of migrations.
 * The template's name is a digest of the migrations, so a changed migration gets a new template.
 */
export async function createTestDatabase(service: string, migrations: Migration[]): Promise<TestDatabase> {
  const digest = createHash('sha256')
    .update(migrations.map((m) => `${m.name}:${m.up.toString()}`).join('\n'))
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
  return {
    name,
    url: withDatabase(adminUrl(), name),
    drop: () => admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/** A knex handle on a fresh test database; `cleanup` destroys the pool and drops the database. */
export async function openTestDatabase(service: string, migrations: Migration[]): Promise<{ db: Knex; url: string; cleanup(): Promise<void> }> {
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
