import { exitOnSignals, runService, type ServiceDefinition } from './run-service';
import { migrateServiceDatabase } from './service-database';
import type { CommonServiceConfig } from './service-config';

/** What a service's main.ts hands over: how to read its configuration and build its definition. */
export interface ServiceEntry<Config extends CommonServiceConfig> {
  name: string;
  readConfig(): Config;
  define(config: Config): ServiceDefinition;
  /** The process's OpenTelemetry SDK, started by main.ts before anything else loaded, flushed at exit. */
  telemetry?: { shutdown(): Promise<void> };
}

/**
 * A service process: `main.ts` serves until SIGTERM/SIGINT (draining first), `main.ts migrate` applies
 * migrations and grants and exits (a Kubernetes Job, a Compose one-shot service). A failed start exits 1.
 */
export function serviceMain<Config extends CommonServiceConfig>(entry: ServiceEntry<Config>): void {
  const start = async () => {
    const config = entry.readConfig();
    if (process.argv[2] === 'migrate') return migrateServiceDatabase(entry.define(config), config);
    const service = await runService(entry.define(config), config);
    exitOnSignals(
      async () => {
        await service.close();
        await entry.telemetry?.shutdown();
      },
      { logger: service.deps.logger, draining: [service.deps.lifecycle], graceMs: config.SHUTDOWN_GRACE_MS },
    );
  };
  start().catch((error) => {
    console.error(`${entry.name} service failed to start: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  });
}
