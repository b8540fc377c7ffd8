import type { Knex } from '@platform/db';
import { ScannerUnavailableError, type VirusScanner } from '@platform/runtime';
import { recordChange } from '../../shared/record-change';
import { fileScanned } from './evidence-events';
import { fileScansStore } from './file-scans';
import type { FileStorage } from '@platform/files';

const SCANNER_ACTOR = 'virus-scanner';

/**
 * Scans one evidence file left `pending`, claimed with FOR UPDATE SKIP LOCKED so replicas never scan
 * the same file, and records the verdict with its audit record and `evidence.file_scanned` on the same
 * transaction. Returns false when nothing is pending or the scanner is still down.
 */
async function rescanOne(db: Knex, scanner: VirusScanner, files: FileStorage, exchange: string): Promise<boolean> {
  return db.transaction(async (trx) => {
    const scans = fileScansStore(trx);
    const pending = await scans.claimPending();
    if (!pending) return false;
    let verdict;
    try {
      verdict = await scanner.scanFile(() => files.open(pending.sha256));
    } catch (error) {
      if (error instanceof ScannerUnavailableError) return false;
      throw error;
    }
    await scans.record(pending.evidence_id, verdict);
    await recordChange(trx, exchange, {
      event: fileScanned,
      entity_type: 'run',
      entity_id: pending.run_id,
      actor: SCANNER_ACTOR,
      data: {
        run_id: pending.run_id,
        evidence_id: pending.evidence_id,
        sha256: pending.sha256,
        scan_status: verdict.status,
        scan_signature: verdict.signature,
      },
    });
    return true;
  });
}

/** Scans pending evidence files until none is left or the scanner is down; resolves with how many were decided. */
export async function rescanPendingFiles(db: Knex, scanner: VirusScanner, files: FileStorage, exchange: string): Promise<number> {
  let decided = 0;
  while (await rescanOne(db, scanner, files, exchange)) decided += 1;
  return decided;
}
