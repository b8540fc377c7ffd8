import type { Knex } from '@platform/db';
import type { FileStorage, PendingScans } from '@platform/files';
import { claimStore } from '../../shared/claim-store';
import { recordClaimChange } from '../../shared/claim-change';
import { claimAttachmentScanned } from './attachments-events';
import { refreshChecklistItem } from './attachments-service';
import { attachmentsStore } from './attachments-store';

type PendingAttachment = { id: string; claim_id: string; sha256: string };

/**
 * Attachments left `pending` (the scanner was down), for the rescan of @platform/files: a verdict is
 * recorded with its audit entry, `claim.attachment_scanned` and the checklist on the claiming transaction.
 */
export function pendingAttachmentScans(storage: FileStorage, exchange: string): PendingScans<PendingAttachment> {
  return {
    claim: (trx) => attachmentsStore(trx).claimPending(),
    open: (pending) => storage.open(pending.sha256),
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
