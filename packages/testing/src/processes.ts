import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BUNDLE_NODE_FLAGS, SERVICE_ENVIRONMENT, SERVICE_NODE_FLAGS } from '@platform/runtime';
import { Client } from 'pg';
import { testAmqpUrl } from './broker';
import { adminUrl } from './databases';
import { TEST_JWT_SECRET } from './tokens';

const ROOT = path.resolve(__dirname, '../../..');

export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port;
}

/** `count` different free ports: each is held until all are chosen, so no two are the same. */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
          const server = createServer();
          server.on('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as { port: number }).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** An empty database on the test server; the service migrates it when it starts. */
export async function createEmptyDatabase(prefix: string): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new Client({ connectionString: adminUrl() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

export interface ManagedProcess {
  readonly name: string;
  readonly url: string;
  readonly port: number;
  pid(): number | undefined;
  output(): string;
  /** Starts (again) and waits until /readyz answers 200. */
  start(): Promise<void>;
  /** Sends a signal and waits for the exit; returns the exit code (or null when killed by the signal). */
  signal(signal: NodeJS.Signals): Promise<number | null>;
  stop(): Promise<void>;
}

/**
 * A platform process (a service or the gateway) run as deployed: its own Node.js process. `entry` is a
 * TypeScript entry point in the workspace (run with tsx), or the `main.js` of a production build
 * (scripts/build-production.ts), run from its own directory as the image runs it.
 */
export function managedProcess(name: string, entry: string, env: Record<string, string>, port: number): ManagedProcess {
  let child: ChildProcess | undefined;
  let exited: Promise<number | null> = Promise.resolve(null);
  let log = '';
  const url = `http://127.0.0.1:${port}`;
  return {
    name,
    url,
    port,
    pid: () => child?.pid,
    output: () => log,
    async start() {
      // node itself (with tsx as a loader for TypeScript): one process, so a signal reaches the service and
      // not a launcher; with the flags and environment production runs it with (deploy/Dockerfile).
      const bundle = entry.endsWith('.js');
      const args = bundle ? [...BUNDLE_NODE_FLAGS, path.basename(entry)] : [...SERVICE_NODE_FLAGS, '--import', 'tsx', entry];
      child = spawn(process.execPath, args, {
        cwd: bundle ? path.dirname(entry) : ROOT,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          LOG_LEVEL: 'warn',
          ...SERVICE_ENVIRONMENT,
          ...env,
          PORT: String(port),
          HOST: '127.0.0.1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const current = child;
      current.stdout!.on('data', (chunk) => (log = (log + chunk).slice(-200000)));
      current.stderr!.on('data', (chunk) => (log = (log + chunk).slice(-200000)));
      exited = new Promise((resolve) => current.on('exit', (code) => resolve(code)));
      const deadline = Date.now() + 60000;
      for (;;) {
        if (current.exitCode !== null) throw new Error(`${name} exited with ${current.exitCode}:\n${log}`);
        try {
          const response = await fetch(`${url}/readyz`);
          if (response.status === 200) return;
        } catch {
          // not listening yet
        }
        if (Date.now() > deadline) throw new Error(`${name} not ready in time:\n${log}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    async signal(signal) {
      if (!child || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
      child.kill(signal);
      return exited;
    },
    async stop() {
      await this.signal('SIGTERM');
    },
  };
}

export interface Stack {
  gateway: ManagedProcess;
  claims: ManagedProcess;
  evidence: ManagedProcess;
  claimsDatabaseUrl: string;
  evidenceDatabaseUrl: string;
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** Where each process's code is: the workspace's TypeScript entry points, or a production build's main.js files. */
export type StackEntries = Record<'gateway' | 'claims' | 'evidence', string>;

export const WORKSPACE_ENTRIES: StackEntries = {
  gateway: 'gateway/src/main.ts',
  claims: 'services/claims/src/main.ts',
  evidence: 'services/evidence/src/main.ts',
};

/**
 * Gateway, claims and evidence as three processes on fresh PostgreSQL databases and the real broker,
 * with exchange and queue names of their own. `overrides` can point a service elsewhere (e.g. at a
 * TCP proxy in front of PostgreSQL) — keys: CLAIMS_DATABASE_URL, EVIDENCE_DATABASE_URL, AMQP_URL, …
 */
export async function startStack(overrides: Record<string, string> = {}, entries: StackEntries = WORKSPACE_ENTRIES): Promise<Stack> {
  const suffix = randomBytes(4).toString('hex');
  const claimsDb = await createEmptyDatabase('stack_claims');
  const evidenceDb = await createEmptyDatabase('stack_evidence');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'stack-'));
  const common: Record<string, string> = {
    NODE_ENV: 'test',
    AUTH_JWT_SECRET: TEST_JWT_SECRET,
    AMQP_URL: testAmqpUrl(),
    DATA_DIR: dataDir,
    CLAIMS_EXCHANGE: `stack.${suffix}.claims.events`,
    EVIDENCE_EXCHANGE: `stack.${suffix}.evidence.events`,
    CLAIM_EVENTS_QUEUE: `stack.${suffix}.evidence.claim-events`,
    PUBLIC_RATE_LIMIT: '0',
    ...overrides,
  };
  const [gatewayPort, claimsPort, evidencePort] = [await freePort(), await freePort(), await freePort()];
  const claims = managedProcess(
    'claims',
    entries.claims,
    { ...common, DATABASE_URL: overrides.CLAIMS_DATABASE_URL ?? claimsDb.url },
    claimsPort,
  );
  const evidence = managedProcess(
    'evidence',
    entries.evidence,
    { ...common, DATABASE_URL: overrides.EVIDENCE_DATABASE_URL ?? evidenceDb.url },
    evidencePort,
  );
  const gateway = managedProcess(
    'gateway',
    entries.gateway,
    { ...common, CLAIMS_URL: claims.url, EVIDENCE_URL: evidence.url },
    gatewayPort,
  );
  // Attachments and binders land in the data directory: a stack leaves none behind (a full benchmark
  // run writes tens of GB there), nor its databases.
  const stop = async () => {
    await gateway.stop();
    await Promise.all([claims.stop(), evidence.stop()]);
    await Promise.all([claimsDb.drop(), evidenceDb.drop(), rm(dataDir, { recursive: true, force: true })]);
  };
  try {
    await Promise.all([claims.start(), evidence.start()]);
    await gateway.start();
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
  return {
    gateway,
    claims,
    evidence,
    claimsDatabaseUrl: claimsDb.url,
    evidenceDatabaseUrl: evidenceDb.url,
    env: common,
    stop,
  };
}
