/**
 * `pnpm start`: the whole platform in one process. With no configuration it runs on embedded defaults
 * (PGlite under DATA_DIR, an in-process event bus); with CLAIMS_DATABASE_URL, EVIDENCE_DATABASE_URL and
 * AMQP_URL it runs on PostgreSQL and RabbitMQ.
 */
import { readConfig } from '@platform/config';
import { createLogger } from '@platform/http';
import { InProcessBus } from '@platform/messaging';
import { exitOnSignals, runService } from '@platform/runtime';
import { claimsService, readClaimsConfig } from '../services/claims/src';
import { evidenceService, readEvidenceConfig } from '../services/evidence/src';
import { readGatewayConfig, startGateway } from '../gateway/src';
import { platformVariables } from './platform-variables';
import { backendsDescription } from './ready-line';

async function main() {
  const env = process.env;
  const platform = readConfig(platformVariables, env);
  const base = { ...env, PORT: undefined, DATABASE_URL: undefined };
  // Only the gateway faces clients: a service reachable directly would bypass its rate limit and access checks.
  const serviceBase = { ...base, HOST: platform.SERVICES_HOST };
  const claimsConfig = readClaimsConfig({ ...serviceBase, PORT: String(platform.CLAIMS_PORT), DATABASE_URL: platform.CLAIMS_DATABASE_URL });
  const evidenceConfig = readEvidenceConfig({ ...serviceBase, PORT: String(platform.EVIDENCE_PORT), DATABASE_URL: platform.EVIDENCE_DATABASE_URL });
  const sharedBus = env.AMQP_URL ? undefined : new InProcessBus(createLogger('bus'));

  const claims = await runService(claimsService(claimsConfig), claimsConfig, { transport: sharedBus });
  const evidence = await runService(evidenceService(evidenceConfig), evidenceConfig, { transport: sharedBus });
  const gateway = await startGateway(
    readGatewayConfig({ ...base, PORT: String(platform.GATEWAY_PORT), CLAIMS_URL: claims.url, EVIDENCE_URL: evidence.url }),
  );

  const backends = backendsDescription({
    claimsDatabaseUrl: platform.CLAIMS_DATABASE_URL,
    evidenceDatabaseUrl: platform.EVIDENCE_DATABASE_URL,
    amqpUrl: env.AMQP_URL,
    dataDir: claimsConfig.DATA_DIR,
  });
  console.log(
    `ready: gateway http://localhost:${gateway.port} (docs /docs) · claims http://${claimsConfig.HOST}:${claims.port} · evidence http://${evidenceConfig.HOST}:${evidence.port} · ${backends}`,
  );
  exitOnSignals(
    async () => {
      await gateway.close();
      await Promise.all([claims.close(), evidence.close()]);
      await sharedBus?.close();
    },
    { draining: [gateway.lifecycle, claims.deps.lifecycle, evidence.deps.lifecycle], graceMs: claimsConfig.SHUTDOWN_GRACE_MS },
  );
}

main().catch((error) => {
  console.error(`platform failed to start: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
