import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { startPeriodicTask, type PeriodicTask } from '@platform/http';

/** What recovers abandoned file placements (FilePlacements of @platform/files). */
export interface PlacementRecovery {
  recoverAbandoned(olderThanMs: number): Promise<number>;
}

/** How often, and after how long an announcement counts as abandoned while the service runs. */
export const PLACEMENT_RECOVERY_INTERVAL_MS = 60_000;

/**
 * Removes the files that placements of an earlier process left without a row — every announcement no
 * transaction holds, before the service takes requests — and then, every minute, those a failed cleanup
 * left (older than a minute, so a request between announcing and placing is not taken for abandoned).
 */
export async function startPlacementRecovery(
  placements: PlacementRecovery,
  logger: Logger,
  what: string,
  metrics?: Registry,
): Promise<PeriodicTask> {
  const recovered = await placements.recoverAbandoned(0).catch((error) => {
    logger.warn({ err: error }, `could not recover the ${what} placements left by an earlier process; retrying every minute`);
    return 0;
  });
  if (recovered > 0) logger.warn({ count: recovered }, `recovered ${what} placements left by an earlier process`);
  return startPeriodicTask({
    name: `${what.replace(/ /g, '-')}-placement-recovery`,
    work: () => placements.recoverAbandoned(PLACEMENT_RECOVERY_INTERVAL_MS),
    intervalMs: PLACEMENT_RECOVERY_INTERVAL_MS,
    logger,
    metrics,
  });
}
