import { authVariables } from '@platform/auth';
import { ConfigError, readConfig, variable, type ConfigOf } from '@platform/config';

/** Variables every service reads. Each service adds its own to these. */
export const commonServiceVariables = {
  PORT: variable.int('Port the service listens on', 3000, 0, 65535),
  HOST: variable.string('Interface the service binds to', '0.0.0.0'),
  DATABASE_URL: variable.url('PostgreSQL connection string; unset means embedded PGlite under DATA_DIR (not in production)', [
    'postgres',
    'postgresql',
  ]),
  MIGRATION_DATABASE_URL: variable.url(
    'PostgreSQL connection string of the role that owns the schema. When set, start-up (and the `migrate` command) runs migrations as it, then grants the DATABASE_URL role only what the service does (SELECT and INSERT alone on append-only tables; no ownership, TRUNCATE or ALTER). Unset: migrations run on DATABASE_URL (development)',
    ['postgres', 'postgresql'],
  ),
  AMQP_URL: variable.url('RabbitMQ connection string; unset means the in-process event bus (not in production)', ['amqp', 'amqps']),
  DATA_DIR: variable.string('Where embedded databases, uploaded files and development keys are kept', './data'),
  ...authVariables,
  NODE_ENV: variable.string('`production` refuses embedded defaults and the development secret', 'development'),
  SHUTDOWN_GRACE_MS: variable.int(
    'After SIGTERM, how long /readyz answers 503 while requests are still served, before the server closes',
    3000,
    0,
    60000,
  ),
};

export type CommonServiceConfig = ConfigOf<typeof commonServiceVariables>;

/** Reads and validates a service's configuration; production refuses the embedded defaults. */
export function readServiceConfig<S extends Record<string, ReturnType<(typeof variable)[keyof typeof variable]>>>(
  specific: S,
  env: NodeJS.ProcessEnv = process.env,
): CommonServiceConfig & ConfigOf<S> {
  const config = readConfig({ ...commonServiceVariables, ...specific }, env) as CommonServiceConfig & ConfigOf<S>;
  if (config.MIGRATION_DATABASE_URL && !config.DATABASE_URL)
    throw new ConfigError('MIGRATION_DATABASE_URL needs DATABASE_URL (the role the service runs as)');
  if (config.NODE_ENV === 'production') {
    if (!config.DATABASE_URL) throw new ConfigError('DATABASE_URL must be set in production (embedded PGlite is for development)');
    if (!config.AMQP_URL) throw new ConfigError('AMQP_URL must be set in production (the in-process bus is for development)');
  }
  return config;
}
