import { startPeriodicTask, type PeriodicTask } from '@platform/http';
import type { ServiceDeps } from '@platform/runtime';
import { idempotencyStore } from './idempotency';

export const IDEMPOTENCY_PURGE_INTERVAL_MS = 15 * 60_000;

/**
 * Removes stored intake answers past IDEMPOTENCY_RETENTION_HOURS every 15 minutes. (A key reused
 * after expiry is also cleared at once by the intake itself, so this only bounds the table.)
 */
export function startIdempotencyPurge(
  deps: Pick<ServiceDeps, 'db' | 'logger'> & Partial<Pick<ServiceDeps, 'metrics'>>,
  intervalMs = IDEMPOTENCY_PURGE_INTERVAL_MS,
): PeriodicTask {
  return startPeriodicTask({
    name: 'idempotency-purge',
    work: () => idempotencyStore(deps.db).purgeExpired(),
    intervalMs,
    runAtStart: false,
    logger: deps.logger,
    metrics: deps.metrics,
  });
}
