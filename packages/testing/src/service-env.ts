import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Migration } from '@platform/db';
import { messagingMigrations } from '@platform/messaging';
import { testAmqpUrl } from './broker';
import { createTestDatabase } from './databases';
import { TEST_JWT_SECRET } from './tokens';

/**
 * The environment for starting a service in a test: its own database (cloned from a migrated
 * template), the real broker, a temporary DATA_DIR, port 0 and the test JWT secret. As in production,
 * the service connects as the runtime role and migrates as the owner (here the superuser), so every
 * test runs on the grants the service gives itself. `databaseUrl` is the superuser's, for fixtures.
 */
export async function testServiceEnv(service: string, migrations: Migration[]) {
  const database = await createTestDatabase(service, [...messagingMigrations, ...migrations]);
  const dataDir = mkdtempSync(path.join(tmpdir(), `${service}-test-`));
  return {
    env: {
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: database.runtimeUrl,
      MIGRATION_DATABASE_URL: database.url,
      AMQP_URL: testAmqpUrl(),
      DATA_DIR: dataDir,
      AUTH_JWT_SECRET: TEST_JWT_SECRET,
    } as Record<string, string>,
    databaseUrl: database.url,
    dataDir,
    async cleanup() {
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
