import { createServer, type Server } from 'node:http';
import path from 'node:path';
import pino from 'pino';
import { Registry } from 'prom-client';
import { readConfig, variable } from '@platform/config';
import { createDatabase, migrate } from '@platform/db';
import { startConfiguredWitness, type RunningWitness } from './run-witness';
import { witnessVariables } from './witness-config';
import { witnessStore, witnessMigration } from './witness-store';

/** Variables of the standalone witness (`pnpm --filter @platform/witness start`). */
export const standaloneWitnessVariables = {
  PORT: variable.int('Port of the standalone witness (GET /healthz, /metrics, /verifier-key, /state)', 3003, 0, 65535),
  DATABASE_URL: variable.url("PostgreSQL connection string of the witness's own database; unset: embedded PGlite under DATA_DIR/witness", [
    'postgres',
    'postgresql',
  ]),
  DATA_DIR: variable.string('Where the embedded database and the development key are kept', './data'),
  NODE_ENV: variable.string('`production` requires WITNESS_KEY', 'development'),
  ...witnessVariables,
};

/** Runs the witness alone, with its own database and key, and a small HTTP server to watch it. */
export async function runStandaloneWitness(
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ server: Server; url: string; witness: RunningWitness; close(): Promise<void> }> {
  const config = readConfig(standaloneWitnessVariables, env);
  if (!config.WITNESS_EVIDENCE_URL) throw new Error('WITNESS_EVIDENCE_URL must be set: the witness needs a log to watch');
  const logger = pino({ name: 'witness', level: env.LOG_LEVEL ?? 'info' });
  const metrics = new Registry();
  const db = createDatabase({ url: config.DATABASE_URL, embeddedDir: path.join(config.DATA_DIR, 'witness', 'db') });
  await migrate(db, [witnessMigration], 'witness_migrations');
  const running = startConfiguredWitness(config, { db, dataDir: config.DATA_DIR, logger, metrics })!;
  const server = createServer((req, res) => {
    const reply = (status: number, type: string, body: string) => res.writeHead(status, { 'content-type': type }).end(body);
    void (async () => {
      if (req.method !== 'GET')
        return reply(405, 'application/problem+json', JSON.stringify({ type: 'about:blank', title: 'Method Not Allowed', status: 405 }));
      switch (req.url) {
        case '/healthz':
          return reply(200, 'application/json', '{"status":"ok"}');
        case '/metrics':
          return reply(200, metrics.contentType, await metrics.metrics());
        case '/verifier-key':
          return reply(200, 'text/plain; charset=utf-8', `${running.verifierKey}\n`);
        case '/state': {
          const store = witnessStore(db);
          const latest = await store.latestCosigned(running.witness.origin);
          const refusals = await store.refusals(running.witness.origin);
          return reply(
            200,
            'application/json',
            JSON.stringify({
              origin: running.witness.origin,
              verifier_key: running.verifierKey,
              cosigned: latest && { size: latest.size, note: latest.note, cosignature: latest.cosignature },
              refusals,
            }),
          );
        }
        default:
          return reply(404, 'application/problem+json', JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404 }));
      }
    })().catch((error: unknown) => {
      logger.error({ err: error }, 'witness request failed');
      reply(503, 'application/problem+json', JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(config.PORT, resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : config.PORT}`;
  logger.info({ url }, 'ready: witness');
  return {
    server,
    url,
    witness: running,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await running.stop();
      await db.destroy();
    },
  };
}
