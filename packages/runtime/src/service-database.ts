import type { Logger } from 'pino';
import { assertOwnsNothing, createDatabase, grantRuntimePrivileges, migrate, type Knex } from '@platform/db';
import { createLogger } from '@platform/http';
import { messagingMigrations } from '@platform/messaging';
import type { CommonServiceConfig } from './service-config';
import type { ServiceDefinition } from './run-service';

async function currentRole(db: Knex): Promise<string> {
  const { rows } = await db.raw('SELECT current_user AS role');
  return rows[0].role;
}

/**
 * Brings the service's database up to date before it serves, on `runtime` (the DATABASE_URL pool).
 * With MIGRATION_DATABASE_URL the migrations run as that role (the schema's owner), which then grants
 * the runtime role exactly what the service does. Without it they run on DATABASE_URL, as in
 * development; a role that may not migrate then starts only when nothing is pending (the migrate
 * command ran first), and production refuses a runtime role that owns the tables.
 */
export async function prepareServiceDatabase(
  definition: ServiceDefinition,
  config: CommonServiceConfig,
  runtime: Knex,
  logger?: Logger,
): Promise<void> {
  const migrations = [...messagingMigrations, ...definition.migrations];
  if (config.MIGRATION_DATABASE_URL) {
    const owner = createDatabase({ url: config.MIGRATION_DATABASE_URL, poolMax: 2 });
    try {
      await migrate(owner, migrations);
      const role = await currentRole(runtime);
      const privileges = await grantRuntimePrivileges(owner, role);
      logger?.info({ role, append_only: privileges.appendOnly }, 'migrations applied; runtime role granted its privileges');
    } finally {
      await owner.destroy();
    }
    return;
  }
  try {
    await migrate(runtime, migrations);
  } catch (error) {
    // knex reports a refused migration lock without the PostgreSQL code, so the message is what tells
    if (!/permission denied/.test((error as Error).message)) throw error;
    throw new Error(
      `the role of DATABASE_URL may not apply pending migrations: set MIGRATION_DATABASE_URL, or run the migrate command first (${(error as Error).message})`,
    );
  }
  if (config.NODE_ENV === 'production') await assertOwnsNothing(runtime, await currentRole(runtime));
}

/** The `migrate` command (a Kubernetes Job, a Compose one-shot service): migrate, grant, exit. */
export async function migrateServiceDatabase(
  definition: ServiceDefinition,
  config: CommonServiceConfig,
  logger = createLogger(definition.name),
): Promise<void> {
  if (!config.DATABASE_URL || !config.MIGRATION_DATABASE_URL)
    throw new Error('migrate needs DATABASE_URL (the runtime role) and MIGRATION_DATABASE_URL (the owner)');
  const runtime = createDatabase({ url: config.DATABASE_URL, poolMax: 1 });
  try {
    await prepareServiceDatabase(definition, config, runtime, logger);
  } finally {
    await runtime.destroy();
  }
}
