import type { Logger } from 'pino';
import { Gauge, type Registry } from 'prom-client';
import { withTimeout } from '@platform/http';

const CHECK_TIMEOUT_MS = 2000;

/**
 * A dependency this process uses but does not need to answer its own requests (the broker behind the
 * outbox, the services behind the gateway): not readiness — an outage would take every pod out of service
 * and defeat the outbox — but a gauge read at each scrape (1 reachable, 0 not) for alerts, and a log line
 * whenever the answer changes.
 */
export function dependencyUpGauge(options: {
  registry: Registry;
  logger: Logger;
  name: string;
  help: string;
  /** One check per label value (`{ claims: ..., evidence: ... }`) or a single unlabelled check. */
  checks: Record<string, () => Promise<unknown>> | (() => Promise<unknown>);
  labelName?: string;
}): Gauge {
  const { logger, name, labelName = 'dependency' } = options;
  const single = typeof options.checks === 'function';
  const checks = typeof options.checks === 'function' ? { '': options.checks } : options.checks;
  const last = new Map<string, number>();
  return new Gauge({
    name,
    help: options.help,
    labelNames: single ? [] : [labelName],
    registers: [options.registry],
    async collect() {
      await Promise.all(
        Object.entries(checks).map(async ([label, check]) => {
          let up = 1;
          let reason: string | undefined;
          try {
            await withTimeout(check(), CHECK_TIMEOUT_MS);
          } catch (error) {
            up = 0;
            reason = (error as Error).message || 'unreachable';
          }
          const labels = single ? {} : { [labelName]: label };
          const before = last.get(label);
          if (up === 0 && before !== 0) logger.warn({ metric: name, ...labels, reason }, 'dependency unreachable');
          if (up === 1 && before === 0) logger.info({ metric: name, ...labels }, 'dependency reachable again');
          last.set(label, up);
          this.set(labels, up);
        }),
      );
    },
  });
}
