/**
 * `pnpm start`: the whole platform in one process. With no configuration it runs on embedded defaults
 * (PGlite under DATA_DIR, an in-process event bus); with CLAIMS_DATABASE_URL, EVIDENCE_DATABASE_URL and
 * AMQP_URL it runs on PostgreSQL and RabbitMQ.
 */
import { telemetry } from './tracing';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { DEV_JWT_SECRET } from '@platform/auth';
import { readConfig } from '@platform/config';
import { createLogger } from '@platform/http';
import { InProcessBus } from '@platform/messaging';
import { exitOnSignals, runService } from '@platform/runtime';
import { claimsService, readClaimsConfig } from '../services/claims/src';
import { evidenceService, readEvidenceConfig } from '../services/evidence/src';
import { checkpointSignerFor } from '../services/evidence/src/features/audit';
import { formatWitnessVerifierKey, loadWitnessKey } from '../packages/witness/src';
import { readGatewayConfig, startGateway } from '../gateway/src';
import { platformVariables } from './platform-variables';
import { backendsDescription, pagesDescription, witnessDescription } from './ready-line';
import { ensureWebBuilt } from './web-build';

/** A port free now: GATEWAY_PORT=0 is resolved before the services start, so their links can name it. */
async function anyFreePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * In development, the claims service hosts a witness of the evidence audit log, so the examiner desk shows a
 * cosigned checkpoint from the first run: its key and the log's are generated into DATA_DIR (as each service
 * would), each side is given the other's verifier key, and the witness signs in with the development secret.
 * Production configures a witness explicitly (WITNESS_*, AUDIT_WITNESS_KEYS); so does anyone who sets them here.
 */
function developmentWitness(env: NodeJS.ProcessEnv) {
  const configured = env.WITNESS_EVIDENCE_URL || env.AUDIT_WITNESS_KEYS || env.AUTH_JWKS_URL;
  if (env.NODE_ENV === 'production' || configured) return undefined;
  const dataDir = path.resolve(env.DATA_DIR ?? 'data');
  const logger = createLogger('start');
  const name = env.WITNESS_NAME ?? 'claims-platform-witness';
  // The key the hosted witness will cosign with: WITNESS_KEY when given, else the one kept under DATA_DIR.
  const witnessKey = loadWitnessKey({ WITNESS_NAME: name, WITNESS_KEY: env.WITNESS_KEY, NODE_ENV: 'development' }, dataDir, logger);
  const verifierKey = formatWitnessVerifierKey(name, witnessKey);
  const logVerifierKey = checkpointSignerFor(env.AUDIT_SIGNING_KEY)({ dataDir, logger }).verifierKey;
  return {
    verifierKey,
    evidenceEnv: { AUDIT_WITNESS_KEYS: verifierKey },
    claimsEnv: (evidenceUrl: string) => ({
      WITNESS_EVIDENCE_URL: evidenceUrl,
      WITNESS_NAME: name,
      WITNESS_LOG_VERIFIER_KEY: logVerifierKey,
      WITNESS_LOG_JWT_SECRET: env.AUTH_JWT_SECRET ?? DEV_JWT_SECRET,
      WITNESS_POLL_INTERVAL_MS: env.WITNESS_POLL_INTERVAL_MS ?? '1000',
    }),
  };
}

async function main() {
  const env = process.env;
  ensureWebBuilt();
  const platform = readConfig(platformVariables, env);
  const gatewayPort = platform.GATEWAY_PORT || (await anyFreePort());
  // Links handed to claimants and examiners lead to the gateway this command starts, unless configured otherwise.
  const base = {
    ...env,
    PORT: undefined,
    DATABASE_URL: undefined,
    PUBLIC_BASE_URL: platform.PUBLIC_BASE_URL ?? `http://localhost:${gatewayPort}`,
    // A newcomer signs in to the pages by picking a user, on the documented development secret only.
    WORKBENCH_DEV_SIGN_IN: env.WORKBENCH_DEV_SIGN_IN ?? String(!env.AUTH_JWT_SECRET && !env.AUTH_JWKS_URL && env.NODE_ENV !== 'production'),
  };
  // Only the gateway faces clients: a service reachable directly would bypass its rate limit and access checks.
  const serviceBase = { ...base, HOST: platform.SERVICES_HOST };
  const witness = developmentWitness(env);
  const evidenceConfig = readEvidenceConfig({
    ...serviceBase,
    ...witness?.evidenceEnv,
    PORT: String(platform.EVIDENCE_PORT),
    DATABASE_URL: platform.EVIDENCE_DATABASE_URL,
  });
  const sharedBus = env.AMQP_URL ? undefined : new InProcessBus(createLogger('bus'));

  // Evidence first: the claims service hosts the witness of its audit log.
  const evidence = await runService(evidenceService(evidenceConfig), evidenceConfig, { transport: sharedBus });
  const claimsConfig = readClaimsConfig({
    ...serviceBase,
    ...witness?.claimsEnv(`http://${evidenceConfig.HOST}:${evidence.port}`),
    PORT: String(platform.CLAIMS_PORT),
    DATABASE_URL: platform.CLAIMS_DATABASE_URL,
  });
  const claims = await runService(claimsService(claimsConfig), claimsConfig, { transport: sharedBus });
  const gateway = await startGateway(
    readGatewayConfig({ ...base, PORT: String(gatewayPort), CLAIMS_URL: claims.url, EVIDENCE_URL: evidence.url }),
  );

  const backends = backendsDescription({
    claimsDatabaseUrl: platform.CLAIMS_DATABASE_URL,
    evidenceDatabaseUrl: platform.EVIDENCE_DATABASE_URL,
    amqpUrl: env.AMQP_URL,
    dataDir: claimsConfig.DATA_DIR,
  });
  const parts = [
    `ready: gateway http://localhost:${gateway.port} (docs /docs)`,
    pagesDescription(`http://localhost:${gateway.port}`),
    `claims http://${claimsConfig.HOST}:${claims.port}`,
    `evidence http://${evidenceConfig.HOST}:${evidence.port}`,
    witnessDescription(witness?.verifierKey),
    backends,
  ];
  console.log(parts.filter(Boolean).join(' · '));
  exitOnSignals(
    async () => {
      await gateway.close();
      await Promise.all([claims.close(), evidence.close()]);
      await sharedBus?.close();
      await telemetry?.shutdown();
    },
    { draining: [gateway.lifecycle, claims.deps.lifecycle, evidence.deps.lifecycle], graceMs: claimsConfig.SHUTDOWN_GRACE_MS },
  );
}

main().catch((error) => {
  console.error(`platform failed to start: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
