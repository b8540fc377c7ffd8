import type { ServiceDeps } from '@platform/runtime';
import { idempotencyStore } from './idempotency';

export const IDEMPOTENCY_PURGE_INTERVAL_MS = 15 * 60_000;

/**
 * Removes stored intake answers past IDEMPOTENCY_RETENTION_HOURS every 15 minutes. (A key reused
 * after expiry is also cleared at once by the intake itself, so this only bounds the table.)
 */
export function startIdempotencyPurge(
  deps: Pick<ServiceDeps, 'db' | 'logger'>,
  intervalMs = IDEMPOTENCY_PURGE_INTERVAL_MS,
): { stop(): void } {
  const timer = setInterval(() => {
    idempotencyStore(deps.db)
      .purgeExpired()
      .then(
        (purged) => purged > 0 && deps.logger.info({ purged }, 'expired idempotency keys purged'),
        (error) => deps.logger.warn({ err: error }, 'idempotency key purge failed; will retry'),
      );
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
