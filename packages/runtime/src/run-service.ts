import path from 'node:path';
import type { Express } from 'express';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { createJwtVerifier, type VerifyToken } from '@platform/auth';
import { createDatabase, isEmbedded, type Knex, type Migration } from '@platform/db';
import {
  Lifecycle,
  OpenApiDocument,
  createLogger,
  createMetrics,
  createServiceApp,
  finishApp,
  listen,
  type RunningServer,
} from '@platform/http';
import { AmqpTransport, InProcessBus, OutboxRelay, type EventTransport } from '@platform/messaging';
import { dependencyUpGauge } from './dependency-metrics';
import { databasePoolGauges } from './pool-metrics';
import { clientTimeouts, type CommonServiceConfig } from './service-config';
import { prepareServiceDatabase } from './service-database';
import { serviceOpenApi } from './service-document';

/** The relay's loop and its metrics' reads (outbox_pending at a scrape) each have a connection. */
const RELAY_POOL_MAX = 2;

/** What a service's features are built from. */
export interface ServiceDeps {
  db: Knex;
  transport: EventTransport;
  logger: Logger;
  metrics: Registry;
  verifyToken: VerifyToken;
  lifecycle: Lifecycle;
  openapi: OpenApiDocument;
  /** Root for files the service keeps (uploads, keys); embedded databases live beside them. */
  dataDir: string;
}

/** What a service contributes: its routes, and background work started after and stopped before them. */
export interface ServiceDefinition {
  name: string;
  title: string;
  description: string;
  /** What each OpenAPI tag (one per feature) covers: the document's `tags`, each with its description. */
  tags: Record<string, string>;
  basePath: string;
  migrations: Migration[];
  exchanges: string[];
  mount(app: Express, deps: ServiceDeps): void;
  startBackground?(deps: ServiceDeps): Promise<{ stop(): Promise<void> }>;
}

export interface RunningService {
  url: string;
  port: number;
  deps: ServiceDeps;
  relay: OutboxRelay;
  close(): Promise<void>;
}

export interface RunOptions {
  /** Share one in-process bus between services running in the same process (embedded mode). */
  transport?: EventTransport;
  relayPollIntervalMs?: number;
}

/**
 * Starts a service: database and migrations, broker, outbox relay, routes, background work, HTTP.
 * close() shuts down in order: stop being ready, stop background work and consumers, let in-flight
 * requests finish, drain the relay, then close the broker and the database.
 */
export async function runService(
  definition: ServiceDefinition,
  config: CommonServiceConfig,
  options: RunOptions = {},
): Promise<RunningService> {
  const logger = createLogger(definition.name);
  const metrics = createMetrics(definition.name);
  const dataDir = path.resolve(config.DATA_DIR);
  const db = createDatabase({
    url: config.DATABASE_URL,
    embeddedDir: path.join(dataDir, 'db', definition.name),
    poolMax: config.DB_POOL_MAX,
  });
  const ownsTransport = !options.transport;
  let transport: EventTransport;
  if (options.transport) transport = options.transport;
  else if (config.AMQP_URL) {
    const amqp = new AmqpTransport(config.AMQP_URL, logger);
    amqp.start();
    transport = amqp;
  } else transport = new InProcessBus(logger);
  try {
    await prepareServiceDatabase(definition, config, db, logger);
    for (const exchange of definition.exchanges) await transport.declareExchange(exchange);
  } catch (error) {
    await db.destroy();
    if (ownsTransport) await transport.close();
    throw error;
  }

  const lifecycle = new Lifecycle();
  const openapi = serviceOpenApi(definition);
  const deps: ServiceDeps = { db, transport, logger, metrics, lifecycle, openapi, dataDir, verifyToken: createJwtVerifier(config) };
  // The relay has connections of its own: drawn from the request pool, every wake-up waited in the pool's
  // queue behind the requests in flight, and claim → audit latency grew with the HTTP load (BENCHMARKS.md, events).
  const relayDb = isEmbedded(db) ? db : createDatabase({ url: config.DATABASE_URL, poolMax: RELAY_POOL_MAX });
  const relay = new OutboxRelay({
    db: relayDb,
    transport,
    logger,
    metrics,
    listenUrl: isEmbedded(db) ? undefined : config.DATABASE_URL,
    pollIntervalMs: options.relayPollIntervalMs ?? (isEmbedded(db) ? 250 : 1000),
  });
  const destroyDatabases = async () => {
    if (relayDb !== db) await relayDb.destroy();
    await db.destroy();
  };
  const app = createServiceApp({
    logger,
    metrics,
    lifecycle,
    openapi,
    // Ready means this process can answer its own requests: its database. The broker is not readiness —
    // the outbox keeps events while it is away — but a gauge and a log line (docs/ARCHITECTURE.md, readiness).
    readiness: { database: () => db.raw('SELECT 1') },
  });
  databasePoolGauges(metrics, relayDb === db ? { requests: db } : { requests: db, relay: relayDb });
  dependencyUpGauge({
    registry: metrics,
    logger,
    name: 'broker_connection_up',
    help: 'Whether the broker connection is up (1) or not (0), checked at each scrape',
    checks: () => transport.check(),
  });
  definition.mount(app, deps);
  finishApp(app, logger);

  relay.start();
  const background = definition.startBackground ? await definition.startBackground(deps) : undefined;
  let server: RunningServer;
  try {
    server = await listen(app, config.PORT, config.HOST, clientTimeouts(config));
  } catch (error) {
    await background?.stop();
    await relay.stop();
    await destroyDatabases();
    if (ownsTransport) await transport.close();
    throw error;
  }
  logger.info(
    { port: server.port, database: isEmbedded(db) ? 'embedded' : 'postgresql', broker: transport.kind },
    `${definition.name} service listening`,
  );

  let closing: Promise<void> | undefined;
  return {
    url: server.url,
    port: server.port,
    deps,
    relay,
    close: () =>
      (closing ??= (async () => {
        lifecycle.draining = true;
        await background?.stop();
        await server.close();
        await relay.stop();
        if (ownsTransport) await transport.close();
        await destroyDatabases();
        logger.info(`${definition.name} service stopped`);
      })()),
  };
}

export interface SignalOptions {
  logger?: Logger;
  /** Lifecycles that report not-ready (503 on /readyz) as soon as the signal arrives. */
  draining?: Lifecycle[];
  /** How long to keep serving while not ready, so load balancers stop sending before the server closes. */
  graceMs?: number;
}

/**
 * For a process entry point: on SIGTERM or SIGINT, report not-ready at once, keep serving for the grace
 * period, then close gracefully (in-flight requests finish) and exit.
 */
export function exitOnSignals(close: () => Promise<void>, options: SignalOptions = {}): void {
  const { logger, draining = [], graceMs = 0 } = options;
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      for (const lifecycle of draining) lifecycle.draining = true;
      logger?.info({ signal, grace_ms: graceMs }, 'shutting down: not ready, draining');
      const force = setTimeout(() => process.exit(1), graceMs + 25000);
      force.unref();
      new Promise((resolve) => setTimeout(resolve, graceMs)).then(close).then(
        () => process.exit(0),
        (error) => {
          logger?.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}
