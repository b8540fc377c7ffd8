import type { Logger } from 'pino';

/**
 * Runs `work` (which resolves with how many things it did) at start and every `intervalMs`, never two
 * passes at once; a pass that did something is logged with `messages.done`, a failed one with
 * `messages.failed` and retried at the next interval. stop() waits for the pass in flight.
 */
export function startRepeatingTask(
  work: () => Promise<number>,
  intervalMs: number,
  logger: Logger,
  messages: { done: string; failed: string },
): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const pass = () => {
    running ??= work()
      .then((count) => {
        if (count > 0) logger.info({ count }, messages.done);
      })
      .catch((error) => logger.warn({ err: error }, messages.failed))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(pass, intervalMs);
  timer.unref();
  pass();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

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
): Promise<{ stop(): Promise<void> }> {
  const recovered = await placements.recoverAbandoned(0).catch((error) => {
    logger.warn({ err: error }, `could not recover the ${what} placements left by an earlier process; retrying every minute`);
    return 0;
  });
  if (recovered > 0) logger.warn({ count: recovered }, `recovered ${what} placements left by an earlier process`);
  return startRepeatingTask(() => placements.recoverAbandoned(PLACEMENT_RECOVERY_INTERVAL_MS), PLACEMENT_RECOVERY_INTERVAL_MS, logger, {
    done: `recovered abandoned ${what} placements`,
    failed: `recovery of abandoned ${what} placements failed; retrying at the next interval`,
  });
}
