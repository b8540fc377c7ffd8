import { exitOnSignals, runService } from '@platform/runtime';
import { readClaimsConfig } from './config';
import { claimsService } from './service';

async function main() {
  const config = readClaimsConfig();
  const service = await runService(claimsService(config), config);
  exitOnSignals(service.close, { logger: service.deps.logger, draining: [service.deps.lifecycle], graceMs: config.SHUTDOWN_GRACE_MS });
}

main().catch((error) => {
  console.error(`claims service failed to start: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
