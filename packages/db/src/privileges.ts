import type { Knex } from 'knex';
import { APPEND_ONLY_TRIGGER_SUFFIX } from './database';

/** Serialises the grant steps of replicas that start together (concurrent GRANTs on one table fail). */
const GRANT_LOCK_KEY = 1735289170;

/** The tables of the schema by what the runtime role may do with them. */
export interface RuntimePrivileges {
  /** SELECT, INSERT, UPDATE, DELETE */
  readWrite: string[];
  /** SELECT, INSERT: the tables appendOnlySql made append-only */
  appendOnly: string[];
  /** SELECT: the migrations bookkeeping, read at start to see that nothing is pending */
  readOnly: string[];
}

/**
 * Gives `runtimeRole` what the service's code does on the current schema, and nothing more: the
 * privileges above on every table, USAGE on the schema and its sequences; never TRUNCATE, REFERENCES,
 * TRIGGER, CREATE or ownership, so it cannot alter a table or switch its triggers off. Run by the
 * migration role after every migration run: the whole set is recomputed from the catalog each time, so
 * a table added by any migration is covered and one made append-only loses UPDATE and DELETE.
 * (ALTER DEFAULT PRIVILEGES would also cover new tables, but only those created by the role that set
 * it, and it cannot know which tables are append-only: the revokes would still need this step.)
 */
export async function grantRuntimePrivileges(
  owner: Knex,
  runtimeRole: string,
  migrationsTable = 'knex_migrations',
): Promise<RuntimePrivileges> {
  return owner.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(?)', [GRANT_LOCK_KEY]);
    const { rows } = await trx.raw('SELECT current_schema() AS schema');
    const schema: string = rows[0].schema;
    await assertOwnsNothing(trx, runtimeRole, schema);
    const bookkeeping = new Set([migrationsTable, `${migrationsTable}_lock`]);
    const tables = await tablesOf(trx, schema);
    const privileges: RuntimePrivileges = {
      readWrite: tables.filter((t) => !bookkeeping.has(t.name) && !t.append_only).map((t) => t.name),
      appendOnly: tables.filter((t) => !bookkeeping.has(t.name) && t.append_only).map((t) => t.name),
      readOnly: tables.filter((t) => bookkeeping.has(t.name)).map((t) => t.name),
    };
    // Everything is revoked and granted again in one transaction: other sessions see the old set until commit.
    await trx.raw('REVOKE ALL ON ALL TABLES IN SCHEMA ?? FROM ??', [schema, runtimeRole]);
    await trx.raw('REVOKE ALL ON ALL SEQUENCES IN SCHEMA ?? FROM ??', [schema, runtimeRole]);
    await trx.raw('REVOKE ALL ON SCHEMA ?? FROM ??', [schema, runtimeRole]);
    await trx.raw('GRANT USAGE ON SCHEMA ?? TO ??', [schema, runtimeRole]);
    const grant = async (what: string, names: string[]) => {
      if (names.length > 0)
        await trx.raw(`GRANT ${what} ON TABLE ${names.map(() => '??').join(', ')} TO ??`, [
          ...names.map((name) => `${schema}.${name}`),
          runtimeRole,
        ]);
    };
    await grant('SELECT, INSERT, UPDATE, DELETE', privileges.readWrite);
    await grant('SELECT, INSERT', privileges.appendOnly);
    await grant('SELECT', privileges.readOnly);
    await trx.raw('GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ?? TO ??', [schema, runtimeRole]);
    const { rows: create } = await trx.raw('SELECT has_schema_privilege(?, ?, ?) AS allowed', [runtimeRole, schema, 'CREATE']);
    if (create[0].allowed) {
      throw new Error(
        `Role "${runtimeRole}" may still create objects in schema "${schema}" (granted to PUBLIC before PostgreSQL 15): REVOKE CREATE ON SCHEMA ${schema} FROM PUBLIC`,
      );
    }
    return privileges;
  });
}

/**
 * Refuses a role that grants cannot restrict: a superuser, an owner of the schema (who may drop its
 * tables) or of a table (who may alter it and disable its triggers), or a member of one.
 */
export async function assertOwnsNothing(db: Knex, role: string, schema?: string): Promise<void> {
  const { rows } = await db.raw(
    `SELECT pg_has_role(r.oid, n.nspowner, 'MEMBER')
            OR EXISTS (SELECT 1 FROM pg_class c WHERE c.relnamespace = n.oid AND pg_has_role(r.oid, c.relowner, 'MEMBER')) AS owner_like
       FROM pg_roles r, pg_namespace n WHERE r.rolname = ? AND n.nspname = coalesce(?, current_schema())`,
    [role, schema ?? null],
  );
  if (rows.length === 0) throw new Error(`Role "${role}" does not exist`);
  if (rows[0].owner_like) {
    throw new Error(
      `Role "${role}" is a superuser or owns (or may act as the owner of) the schema or its tables, so grants cannot restrict it: ` +
        'the service must connect as a role that owns nothing (see deploy/README.md: REASSIGN OWNED BY it TO the migration role)',
    );
  }
}

async function tablesOf(trx: Knex, schema: string): Promise<{ name: string; append_only: boolean }[]> {
  const { rows } = await trx.raw(
    `SELECT c.relname AS name,
            EXISTS (SELECT 1 FROM pg_trigger t WHERE t.tgrelid = c.oid AND t.tgname = c.relname || ?) AS append_only
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ? AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
      ORDER BY c.relname`,
    [APPEND_ONLY_TRIGGER_SUFFIX, schema],
  );
  return rows;
}
