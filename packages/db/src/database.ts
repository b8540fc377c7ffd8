import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import knex, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';

export type Database = Knex;

export interface DatabaseOptions {
  /** A PostgreSQL connection string. Without it the database is embedded PGlite under `embeddedDir`. */
  url?: string;
  embeddedDir?: string;
  poolMax?: number;
}

interface EmbeddedQuery {
  sql: string;
  bindings?: unknown[];
  response?: unknown;
}

interface PGliteConnection {
  exec(sql: string): Promise<{ rows: unknown[]; fields: unknown[]; affectedRows?: number }[]>;
}

/**
 * knex-pglite sends every query as one prepared statement, which PGlite refuses for SQL holding several
 * statements; PostgreSQL takes them (simple protocol), and migrations rely on it. Raw SQL without
 * bindings that holds a statement separator therefore runs through PGlite's exec (simple protocol);
 * the result is the last statement's, as node-postgres reports it.
 */
class EmbeddedClient extends ClientPgLite {
  /**
   * knex-pglite names a result by knex's method (`DEL`), not by PostgreSQL's command tag (`DELETE`), so knex
   * handed back the whole result object where node-postgres gives a count of affected rows.
   */
  processResponse(obj: EmbeddedQuery & { method?: string }, runner: unknown): unknown {
    const method = obj.method === 'del' ? 'delete' : obj.method;
    return (ClientPgLite.prototype as unknown as { processResponse(o: unknown, r: unknown): unknown }).processResponse.call(
      this,
      { ...obj, method },
      runner,
    );
  }

  async _query(connection: PGliteConnection, obj: EmbeddedQuery): Promise<EmbeddedQuery> {
    if ((!obj.bindings || obj.bindings.length === 0) && /;\s*\S/.test(obj.sql)) {
      const results = await connection.exec(obj.sql);
      obj.response = results[results.length - 1] ?? { rows: [], fields: [], affectedRows: 0 };
      return obj;
    }
    return (ClientPgLite.prototype as unknown as { _query(c: unknown, o: EmbeddedQuery): Promise<EmbeddedQuery> })._query.call(
      this,
      connection,
      obj,
    );
  }
}

export function isEmbedded(db: Knex): boolean {
  return db.client.config.client === EmbeddedClient || db.client.config.client === ClientPgLite;
}

/** A knex instance on PostgreSQL or, for a first run with no infrastructure, on embedded PGlite. */
export function createDatabase(options: DatabaseOptions): Knex {
  if (options.url) {
    return knex({
      client: 'pg',
      connection: { connectionString: options.url, connectionTimeoutMillis: 3000, statement_timeout: 15000 } as Knex.PgConnectionConfig,
      pool: { min: 0, max: options.poolMax ?? 10, idleTimeoutMillis: 10000 },
      acquireConnectionTimeout: 4000,
    });
  }
  if (!options.embeddedDir) throw new Error('createDatabase needs a url or an embeddedDir');
  mkdirSync(options.embeddedDir, { recursive: true });
  // The contrib extensions migrations may CREATE EXTENSION (pg_trgm for claim search) must be loaded by PGlite itself.
  const pglite = new PGlite(options.embeddedDir, { extensions: { pg_trgm } });
  return knex({ client: EmbeddedClient, dialect: 'postgres', connection: { pglite } } as Knex.Config);
}

/**
 * A migration is the SQL it executes, written out as a literal (one or several statements). It never
 * calls live code, so editing a vocabulary list or a helper cannot rewrite a migration a database has
 * already run; once released its text never changes (each service's tests hold it to its checksum).
 */
export interface Migration {
  name: string;
  sql: string;
}

/** SHA-256 (hex) of what a migration executes: the released text it is held to. */
export function migrationChecksum(migration: Migration): string {
  return createHash('sha256').update(migration.sql).digest('hex');
}

/** The migrations not yet applied; only reads, so a runtime role with SELECT on the bookkeeping can ask. */
export async function pendingMigrations(db: Knex, migrations: Migration[], tableName = 'knex_migrations'): Promise<Migration[]> {
  if (!(await db.schema.hasTable(tableName))) return migrations;
  const applied = new Set<string>(await db(tableName).pluck('name'));
  return migrations.filter((migration) => !applied.has(migration.name));
}

/**
 * Runs a service's migrations (an ordered list in code, never edited once merged). With nothing pending
 * it only reads, so a service on a role that may not migrate starts once the migrations have run.
 */
export async function migrate(db: Knex, migrations: Migration[], tableName = 'knex_migrations'): Promise<void> {
  if ((await pendingMigrations(db, migrations, tableName)).length === 0) return;
  await db.migrate.latest({
    tableName,
    migrationSource: {
      getMigrations: async () => migrations,
      getMigrationName: (migration: Migration) => migration.name,
      getMigration: async (migration: Migration) => ({
        up: (trx: Knex) => trx.raw(migration.sql),
        down: async () => {
          throw new Error(`${migration.name} cannot be rolled back`);
        },
      }),
    },
  });
}

/** Names the row trigger of an append-only table (`<table>_no_update_delete`); the grant step finds append-only tables by it. */
export const APPEND_ONLY_TRIGGER_SUFFIX = '_no_update_delete';

/**
 * SQL that makes a table append-only at the database: UPDATE, DELETE and TRUNCATE are refused. Triggers
 * bind every role but the table's owner (who may disable them): the service connects as a role that
 * owns nothing and holds only SELECT and INSERT on such a table (see grantRuntimePrivileges).
 */
export function appendOnlySql(table: string): string {
  return `
    CREATE OR REPLACE FUNCTION refuse_change_${table}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION '${table} is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$;
    CREATE TRIGGER ${table}${APPEND_ONLY_TRIGGER_SUFFIX} BEFORE UPDATE OR DELETE ON ${table}
      FOR EACH ROW EXECUTE FUNCTION refuse_change_${table}();
    CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON ${table}
      FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_${table}();`;
}
