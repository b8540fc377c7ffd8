import type { FileStorage, PendingScans } from '@platform/files';
import { recordChange } from '../../shared/record-change';
import { fileScanned } from './evidence-events';
import { fileScansStore, type PendingFileScan } from './file-scans';

/**
 * Evidence files left `pending` (the scanner was down), for the rescan of @platform/files: a verdict is
 * recorded with its audit record and `evidence.file_scanned` on the claiming transaction.
 */
export function pendingFileScans(files: FileStorage, exchange: string): PendingScans<PendingFileScan> {
  return {
    claim: (trx) => fileScansStore(trx).claimPending(),
    open: (pending) => files.open(pending.sha256),
    async record(trx, pending, verdict) {
      await fileScansStore(trx).record(pending.evidence_id, verdict);
      await recordChange(trx, exchange, {
        event: fileScanned,
        entity_type: 'run',
        entity_id: pending.run_id,
        actor: 'virus-scanner',
        data: {
          run_id: pending.run_id,
          evidence_id: pending.evidence_id,
          sha256: pending.sha256,
          scan_status: verdict.status,
          scan_signature: verdict.signature,
        },
      });
    },
  };
}
