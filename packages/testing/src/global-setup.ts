import { randomBytes } from 'node:crypto';
import { resolveInfrastructure } from './infrastructure';

/** Jest global setup: finds the infrastructure once and hands it to every worker through the environment. */
export default async function globalSetup(): Promise<void> {
  const infrastructure = await resolveInfrastructure();
  process.env.TEST_DATABASE_URL = infrastructure.databaseUrl;
  process.env.TEST_AMQP_URL = infrastructure.amqpUrl;
  process.env.TEST_RUN_ID ??= randomBytes(4).toString('hex');
  process.env.NODE_ENV = 'test';
  (globalThis as { __stopInfrastructure?: () => Promise<void> }).__stopInfrastructure = infrastructure.stop;
}
