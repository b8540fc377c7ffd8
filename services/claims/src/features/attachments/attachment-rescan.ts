import type { Knex } from '@platform/db';
import type { FileStorage } from '@platform/files';
import { ScannerUnavailableError, type VirusScanner } from '@platform/runtime';
import { claimStore } from '../../shared/claim-store';
import { recordClaimChange } from '../../shared/claim-change';
import { claimAttachmentScanned } from './attachments-events';
import { refreshChecklistItem } from './attachments-service';
import { attachmentsStore } from './attachments-store';

/**
 * Scans one attachment left `pending`, claimed with FOR UPDATE SKIP LOCKED so replicas never scan the
 * same row, and records the verdict with its audit entry, `claim.attachment_scanned` and the checklist
 * on the same transaction. Returns false when nothing is pending or the scanner is still down.
 */
async function rescanOne(db: Knex, scanner: VirusScanner, storage: FileStorage, exchange: string): Promise<boolean> {
  return db.transaction(async (trx) => {
    const pending = await attachmentsStore(trx).claimPending();
    if (!pending) return false;
    let verdict;
    try {
      verdict = await scanner.scanFile(() => storage.open(pending.sha256));
    } catch (error) {
      if (error instanceof ScannerUnavailableError) return false;
      throw error;
    }
    const claim = await claimStore(trx).find(pending.claim_id, { forUpdate: true });
    if (!claim) throw new Error(`attachment ${pending.id} has no claim`);
    const attachment = await attachmentsStore(trx).recordScanOutcome(pending.id, verdict);
    const scan = {
      attachment_id: attachment.attachment_id,
      sha256: attachment.sha256,
      scan_status: verdict.status,
      scan_signature: verdict.signature,
    };
    await recordClaimChange(trx, exchange, {
      claimId: claim.claim_id,
      event: claimAttachmentScanned,
      actor: 'virus-scanner',
      data: { claim_number: claim.claim_number, ...scan },
      timeline: { action: 'attachment.scanned', data: scan },
    });
    await refreshChecklistItem(trx, claim, attachment.document_type);
    return true;
  });
}

/** Scans pending attachments until none is left or the scanner is down; resolves with how many were decided. */
export async function rescanPendingAttachments(db: Knex, scanner: VirusScanner, storage: FileStorage, exchange: string): Promise<number> {
  let decided = 0;
  while (await rescanOne(db, scanner, storage, exchange)) decided += 1;
  return decided;
}
