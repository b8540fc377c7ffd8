import { authConfigRules, authVariables } from '@platform/auth';
import { ConfigError, inProduction, readConfig, variable, type ConfigOf, type ConfigRule } from '@platform/config';
import { CLIENT_TIMEOUTS, type ClientTimeouts } from '@platform/http';

/**
 * How long a client may take to send its request, on every listening process (the gateway and both
 * services): past either, 408 problem+json and the connection closes.
 */
export const clientTimeoutVariables = {
  HEADERS_TIMEOUT_MS: variable.int(
    'How long a client may take to send its request headers before it is answered 408 and its connection closed (Node alone would hold unfinished headers about 84 s)',
    CLIENT_TIMEOUTS.headersTimeoutMs,
    1000,
  ),
  REQUEST_TIMEOUT_MS: variable.int(
    'How long a client may take to send its whole request, body included, before it is answered 408 and its connection closed; at least HEADERS_TIMEOUT_MS. Long enough for the largest upload on a slow link (25 MiB at 1 Mbit/s is about 210 s)',
    CLIENT_TIMEOUTS.requestTimeoutMs,
    1000,
  ),
};

/** The listener's timeouts from HEADERS_TIMEOUT_MS and REQUEST_TIMEOUT_MS; a request timeout below the headers' is refused. */
export function clientTimeouts(config: ConfigOf<typeof clientTimeoutVariables>): ClientTimeouts {
  if (config.REQUEST_TIMEOUT_MS < config.HEADERS_TIMEOUT_MS)
    throw new ConfigError(
      `REQUEST_TIMEOUT_MS (${config.REQUEST_TIMEOUT_MS}) must be at least HEADERS_TIMEOUT_MS (${config.HEADERS_TIMEOUT_MS})`,
    );
  return {
    headersTimeoutMs: config.HEADERS_TIMEOUT_MS,
    requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
    checkIntervalMs: CLIENT_TIMEOUTS.checkIntervalMs,
  };
}

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
  AMQP_URL: variable.urls(
    "RabbitMQ connection string, or a cluster's node addresses separated by commas (a connection is tried on each in turn, and moves to the next when its node goes away); unset means the in-process event bus (not in production)",
    ['amqp', 'amqps'],
  ),
  DB_POOL_MAX: variable.int(
    'Most PostgreSQL connections the service holds for requests and background work (the outbox relay has 2 more of its own); watch db_pool_connections_waiting',
    10,
    1,
    1000,
  ),
  DATA_DIR: variable.string('Where embedded databases, uploaded files and development keys are kept', './data'),
  LOCAL_FILES_SINGLE_REPLICA: variable.bool(
    "Production without OBJECT_STORE_URL keeps uploaded files in this process's DATA_DIR, which no other replica sees: set true to say exactly one replica runs (pinned); without it, production refuses to start on local storage",
    false,
  ),
  ...clientTimeoutVariables,
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

const commonServiceRules: ConfigRule<CommonServiceConfig>[] = [
  (c) => void clientTimeouts(c),
  (c) => c.MIGRATION_DATABASE_URL && !c.DATABASE_URL && 'MIGRATION_DATABASE_URL needs DATABASE_URL (the role the service runs as)',
  inProduction((c) => !c.DATABASE_URL && 'DATABASE_URL must be set in production (embedded PGlite is for development)'),
  inProduction((c) => !c.AMQP_URL && 'AMQP_URL must be set in production (the in-process bus is for development)'),
  // A process cannot count its replicas; the operator says there is one, or files go to the object store.
  inProduction(
    (c: CommonServiceConfig & { OBJECT_STORE_URL?: string }) =>
      !c.OBJECT_STORE_URL &&
      !c.LOCAL_FILES_SINGLE_REPLICA &&
      'OBJECT_STORE_URL must be set in production: files in DATA_DIR are seen by one replica only (set LOCAL_FILES_SINGLE_REPLICA=true where exactly one replica runs)',
  ),
  ...authConfigRules,
];

/**
 * Reads and validates a service's configuration, with the service's own `rules`; production refuses the
 * embedded defaults. Every problem is reported at once (one ConfigError).
 */
export function readServiceConfig<S extends Record<string, ReturnType<(typeof variable)[keyof typeof variable]>>>(
  specific: S,
  env: NodeJS.ProcessEnv = process.env,
  rules: ConfigRule<CommonServiceConfig & ConfigOf<S>>[] = [],
): CommonServiceConfig & ConfigOf<S> {
  const allRules = [...commonServiceRules, ...rules] as ConfigRule<ConfigOf<typeof commonServiceVariables & S>>[];
  return readConfig({ ...commonServiceVariables, ...specific }, env, allRules) as CommonServiceConfig & ConfigOf<S>;
}
