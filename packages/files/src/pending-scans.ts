import type { Readable } from 'node:stream';
import type { Knex } from '@platform/db';
import { startPeriodicTask, type PeriodicTask, type PeriodicTaskOptions } from '@platform/http';
import { ScannerUnavailableError, type VirusScanner } from './virus-scanner';

/** What a service keeps of the files the scanner has not decided yet (`pending`: it was down). */
export interface PendingScans<P> {
  /** One pending file, claimed FOR UPDATE SKIP LOCKED on `trx` so replicas never scan the same one; undefined when none is left. */
  claim(trx: Knex): Promise<P | undefined>;
  /** The bytes of the file to scan. */
  open(file: P): Promise<Readable>;
  /** Records the verdict, with its audit entry and event, on the claiming transaction. */
  record(trx: Knex, file: P, verdict: { status: 'clean' | 'infected'; signature: string | null }): Promise<void>;
}

/** Scans one pending file; false when nothing is pending or the scanner is still down. */
async function rescanOne<P>(db: Knex, scanner: VirusScanner, pending: PendingScans<P>): Promise<boolean> {
  return db.transaction(async (trx) => {
    const file = await pending.claim(trx);
    if (file === undefined) return false;
    let verdict;
    try {
      verdict = await scanner.scanFile(() => pending.open(file));
    } catch (error) {
      if (error instanceof ScannerUnavailableError) return false;
      throw error;
    }
    await pending.record(trx, file, verdict);
    return true;
  });
}

/** Scans pending files until none is left or the scanner is down; resolves with how many were decided. */
export async function rescanPending<P>(db: Knex, scanner: VirusScanner, pending: PendingScans<P>): Promise<number> {
  let decided = 0;
  while (await rescanOne(db, scanner, pending)) decided += 1;
  return decided;
}

export interface RescanOptions<P> {
  db: Knex;
  /** Undefined (no CLAMD_URL): nothing is ever pending, no task starts. */
  scanner: VirusScanner | undefined;
  pending: PendingScans<P>;
  /** SCAN_RETRY_INTERVAL_MS */
  intervalMs: number;
  logger: PeriodicTaskOptions['logger'];
  metrics?: PeriodicTaskOptions['metrics'];
  /** Names the task (`<what>-rescan`) in logs and metrics, e.g. `attachments`. */
  what: string;
}

/** Decides pending files at start and every `intervalMs`, on the periodic-task runner. */
export function startRescan<P>(options: RescanOptions<P>): PeriodicTask | undefined {
  const { scanner } = options;
  if (!scanner) return undefined;
  return startPeriodicTask({
    name: `${options.what.replace(/ /g, '-')}-rescan`,
    work: () => rescanPending(options.db, scanner, options.pending),
    intervalMs: options.intervalMs,
    logger: options.logger,
    metrics: options.metrics,
  });
}
