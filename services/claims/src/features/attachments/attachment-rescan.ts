import type { Knex } from '@platform/db';
import type { PendingScans } from '@platform/files';
import { claimStore } from '../../shared/claim-store';
import { recordClaimChange } from '../../shared/claim-change';
import { claimAttachmentScanned } from './attachments-events';
import { refreshChecklistItem } from './attachments-service';
import { attachmentsStore } from './attachments-store';
import type { ClaimFiles } from './claim-files';

/** `trx`: the claiming transaction, on which the file's key is read. */
type PendingAttachment = { id: string; claim_id: string; sha256: string; trx: Knex };

/**
 * Attachments left `pending` (the scanner was down), for the rescan of @platform/files (their bytes opened,
 * decrypted, through claim-files.ts): a verdict is
 * recorded with its audit entry, `claim.attachment_scanned` and the checklist on the claiming transaction.
 */
export function pendingAttachmentScans(files: ClaimFiles, exchange: string): PendingScans<PendingAttachment> {
  return {
    async claim(trx) {
      const pending = await attachmentsStore(trx).claimPending();
      return pending && { ...pending, trx };
    },
    open: (pending) => files.open(pending.claim_id, pending.id, pending.trx),
    async record(trx: Knex, pending, verdict) {
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
    },
  };
}
