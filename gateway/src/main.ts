import { telemetry } from './tracing';
import { createLogger } from '@platform/http';
import { exitOnSignals } from '@platform/runtime';
import { readGatewayConfig } from './config';
import { startGateway } from './gateway';

async function main() {
  const config = readGatewayConfig();
  const gateway = await startGateway(config);
  exitOnSignals(
    async () => {
      await gateway.close();
      await telemetry?.shutdown();
    },
    { logger: createLogger('gateway'), draining: [gateway.lifecycle], graceMs: config.SHUTDOWN_GRACE_MS },
  );
}

main().catch((error) => {
  console.error(`gateway failed to start: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
