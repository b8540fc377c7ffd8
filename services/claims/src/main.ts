import { telemetry } from './tracing';
import { exitOnSignals, migrateServiceDatabase, runService } from '@platform/runtime';
import { readClaimsConfig } from './config';
import { claimsService } from './service';

async function main() {
  const config = readClaimsConfig();
  // `main.ts migrate`: apply migrations and grants, then exit (a Kubernetes Job, a Compose one-shot service)
  if (process.argv[2] === 'migrate') return migrateServiceDatabase(claimsService(config), config);
  const service = await runService(claimsService(config), config);
  exitOnSignals(
    async () => {
      await service.close();
      await telemetry?.shutdown();
    },
    { logger: service.deps.logger, draining: [service.deps.lifecycle], graceMs: config.SHUTDOWN_GRACE_MS },
  );
}

main().catch((error) => {
  console.error(`claims service failed to start: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
