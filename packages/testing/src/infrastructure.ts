import { execSync } from 'node:child_process';
import amqp from 'amqplib';
import { Client } from 'pg';

export const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
export const DEFAULT_TEST_AMQP_URL = 'amqp://guest:guest@127.0.0.1:5672';

async function reachable(check: () => Promise<void>): Promise<boolean> {
  try {
    await check();
    return true;
  } catch {
    return false;
  }
}

export async function postgresReachable(url: string): Promise<boolean> {
  return reachable(async () => {
    const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
    await client.connect();
    await client.end();
  });
}

export async function rabbitReachable(url: string): Promise<boolean> {
  return reachable(async () => {
    const connection = await amqp.connect(url, { timeout: 3000 });
    await connection.close();
  });
}

function dockerAvailable(): boolean {
  try {
    execSync('docker info', { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * Where the tests find PostgreSQL and RabbitMQ: TEST_DATABASE_URL / TEST_AMQP_URL first (defaults: the
 * local servers), else containers when a Docker engine runs, else one clear error. Never a silent skip.
 */
export async function resolveInfrastructure(): Promise<{ databaseUrl: string; amqpUrl: string; stop(): Promise<void> }> {
  const databaseUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;
  const amqpUrl = process.env.TEST_AMQP_URL ?? DEFAULT_TEST_AMQP_URL;
  const [pgUp, rabbitUp] = await Promise.all([postgresReachable(databaseUrl), rabbitReachable(amqpUrl)]);
  if (pgUp && rabbitUp) return { databaseUrl, amqpUrl, stop: async () => undefined };
  if (dockerAvailable()) {
    const { PostgreSqlContainer } = require('@testcontainers/postgresql');
    const { RabbitMQContainer } = require('@testcontainers/rabbitmq');
    const postgres = pgUp ? undefined : await new PostgreSqlContainer('postgres:16-alpine').start();
    const rabbit = rabbitUp ? undefined : await new RabbitMQContainer('rabbitmq:3.13-alpine').start();
    return {
      databaseUrl: postgres ? postgres.getConnectionUri() : databaseUrl,
      amqpUrl: rabbit ? rabbit.getAmqpUrl() : amqpUrl,
      stop: async () => {
        await postgres?.stop();
        await rabbit?.stop();
      },
    };
  }
  const missing = [
    !pgUp && `PostgreSQL at ${databaseUrl} (set TEST_DATABASE_URL)`,
    !rabbitUp && `RabbitMQ at ${amqpUrl} (set TEST_AMQP_URL)`,
  ].filter(Boolean);
  throw new Error(
    `Integration tests need real infrastructure. Unreachable: ${missing.join('; ')}. No Docker engine is available to start containers either.`,
  );
}
