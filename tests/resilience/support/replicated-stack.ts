import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createEmptyDatabase,
  deleteTopology,
  freePorts,
  managedProcess,
  testAmqpUrl,
  TEST_JWT_SECRET,
  type ManagedProcess,
} from '@platform/testing';
import { startBalancer } from './balancer';

/**
 * Two gateways behind nginx, each reaching two claims and two evidence replicas through nginx upstreams
 * (the stand-ins for Kubernetes Services); one PostgreSQL database per service shared by its replicas; the
 * real RabbitMQ; uploaded files in the object store `objectStore` names (OBJECT_STORE_* settings), each
 * replica with a DATA_DIR of its own.
 */
export interface ReplicatedStack {
  /** nginx in front of the gateways: where clients go. */
  url: string;
  gateways: [ManagedProcess, ManagedProcess];
  claims: [ManagedProcess, ManagedProcess];
  evidence: [ManagedProcess, ManagedProcess];
  claimsDatabaseUrl: string;
  evidenceDatabaseUrl: string;
  cleanup(scenario: string): Promise<void>;
}

/** s3rver in a process of its own (support/object-store-process.ts): its OBJECT_STORE_* settings, and stop(). */
export async function startObjectStore(): Promise<{ config: Record<string, string>; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'object-store-process.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const config = await new Promise<Record<string, string>>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve(JSON.parse(out.slice(0, out.indexOf('\n'))) as Record<string, string>);
    });
    child.once('exit', (code) => reject(new Error(`the object store exited with ${code}`)));
  });
  return {
    config,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function startReplicatedStack(
  objectStore: Record<string, string>,
  overrides: { claims?: Record<string, string>; evidence?: Record<string, string> } = {},
): Promise<ReplicatedStack> {
  const suffix = randomBytes(4).toString('hex');
  const root = mkdtempSync(path.join(tmpdir(), 'replicated-'));
  chmodSync(root, 0o755); // nginx's workers drop root and need to reach their temp directories in it
  const claimsDb = await createEmptyDatabase('repl_claims');
  const evidenceDb = await createEmptyDatabase('repl_evidence');
  const common: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    AUTH_JWT_SECRET: TEST_JWT_SECRET,
    AMQP_URL: testAmqpUrl(),
    CLAIMS_EXCHANGE: `repl.${suffix}.claims.events`,
    EVIDENCE_EXCHANGE: `repl.${suffix}.evidence.events`,
    CLAIM_EVENTS_QUEUE: `repl.${suffix}.evidence.claim-events`,
  };
  const dataDir = (name: string) => {
    const dir = path.join(root, name);
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  // Every claims replica is given the same key-encryption key (KEY_VAULT=local), as the operator does with one
  // mounted Secret (deploy/k8s): a data key one replica wrapped is opened by the other. The service keeps its
  // other keys (blind index, name index) in the database, wrapped by it.
  const kekFile = path.join(root, 'secrets', 'privacy-kek');
  mkdirSync(path.dirname(kekFile));
  writeFileSync(kekFile, `${randomBytes(32).toString('base64')}\n`, { mode: 0o400 });
  const claimsEnv = (name: string) => ({
    ...common,
    ...objectStore,
    DATABASE_URL: claimsDb.url,
    DATA_DIR: dataDir(name),
    PRIVACY_KEK_FILE: kekFile,
    ...overrides.claims,
  });
  // Every replica signs checkpoints with the same key, as a shared Secret would give them.
  const signingKey = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const evidenceEnv = (name: string) => ({
    ...common,
    ...objectStore,
    DATABASE_URL: evidenceDb.url,
    DATA_DIR: dataDir(name),
    AUDIT_SIGNING_KEY: signingKey,
    ...overrides.evidence,
  });

  // Nine different ports: two calls of freePort may return the same one when neither is bound yet (a likely
  // reading of a CI run where gateway-b's /readyz timed out on its upstream for a minute).
  const [front, claimsPort, evidencePort, ...replicaPorts] = await freePorts(9);
  const ports = { front, claims: claimsPort, evidence: evidencePort };
  const claims = [
    managedProcess('claims-a', 'services/claims/src/main.ts', claimsEnv('claims-a'), replicaPorts[0]),
    managedProcess('claims-b', 'services/claims/src/main.ts', claimsEnv('claims-b'), replicaPorts[1]),
  ] as [ManagedProcess, ManagedProcess];
  const evidence = [
    managedProcess('evidence-a', 'services/evidence/src/main.ts', evidenceEnv('evidence-a'), replicaPorts[2]),
    managedProcess('evidence-b', 'services/evidence/src/main.ts', evidenceEnv('evidence-b'), replicaPorts[3]),
  ] as [ManagedProcess, ManagedProcess];
  const gatewayEnv = (name: string) => ({
    ...common,
    DATA_DIR: dataDir(name),
    CLAIMS_URL: `http://127.0.0.1:${ports.claims}`,
    EVIDENCE_URL: `http://127.0.0.1:${ports.evidence}`,
    PUBLIC_RATE_LIMIT: '0',
    TRUST_PROXY: 'loopback',
  });
  const gateways = [
    managedProcess('gateway-a', 'gateway/src/main.ts', gatewayEnv('gateway-a'), replicaPorts[4]),
    managedProcess('gateway-b', 'gateway/src/main.ts', gatewayEnv('gateway-b'), replicaPorts[5]),
  ] as [ManagedProcess, ManagedProcess];

  const balancer = await startBalancer(path.join(root, 'nginx'), {
    front: { port: ports.front, replicas: gateways.map((g) => g.port) },
    claims: { port: ports.claims, replicas: claims.map((c) => c.port) },
    evidence: { port: ports.evidence, replicas: evidence.map((e) => e.port) },
  });
  const all = [...gateways, ...claims, ...evidence];
  /** Gateways first, so no request reaches a stopped service through them; then the load balancer. */
  const stopProcesses = async () => {
    await Promise.all(gateways.map((gateway) => gateway.stop().catch(() => undefined)));
    await Promise.all([...claims, ...evidence].map((service) => service.stop().catch(() => undefined)));
    await balancer.stop().catch(() => undefined);
  };
  // The first replica migrates the empty database (in Kubernetes, the migration Job), then the second joins.
  try {
    await Promise.all([claims[0].start(), evidence[0].start()]);
    await Promise.all([claims[1].start(), evidence[1].start()]);
    await Promise.all(gateways.map((gateway) => gateway.start()));
  } catch (error) {
    // A stack that did not start leaves no process behind (jest would wait for them after the run).
    await stopProcesses();
    throw error;
  }

  return {
    url: balancer.urls.front,
    gateways,
    claims,
    evidence,
    claimsDatabaseUrl: claimsDb.url,
    evidenceDatabaseUrl: evidenceDb.url,
    async cleanup(scenario: string) {
      await stopProcesses();
      const logs = path.resolve(__dirname, '../.results/logs');
      mkdirSync(logs, { recursive: true });
      for (const process of all) writeFileSync(path.join(logs, `${scenario}.${process.name}.log`), process.output());
      copyFileSync(path.join(root, 'nginx/logs/error.log'), path.join(logs, `${scenario}.nginx.log`));
      await deleteTopology(
        [common.CLAIMS_EXCHANGE, common.EVIDENCE_EXCHANGE],
        [common.CLAIM_EVENTS_QUEUE, `${common.CLAIM_EVENTS_QUEUE}.dlq`],
      ).catch(() => undefined);
      await Promise.all([claimsDb.drop(), evidenceDb.drop()]).catch(() => undefined);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
