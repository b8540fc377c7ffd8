import { randomUUID } from 'node:crypto';
import type { Knex } from '@platform/db';
import type { FileStorage, ScannedFile, ScanStatus } from '@platform/files';
import { problems } from '@platform/http';
import type { Claim } from '../../shared/claim-schemas';
import { claimStore } from '../../shared/claim-store';
import { recordClaimChange } from '../../shared/claim-change';
import { claimAttachmentAdded } from './attachments-events';
import { attachmentsStore } from './attachments-store';
import type { Attachment } from '../../shared/attachment';
import type { ReceivedFile, ReceivedUpload } from './multipart-upload';

export interface AttachmentResult extends Omit<Attachment, 'description'> {
  duplicate: boolean;
  scan_notice: string | null;
}

/** An upload whose files have been through the virus scanner (or found it down, or not configured). */
export interface ScannedUpload extends ReceivedUpload {
  files: ScannedFile<ReceivedFile>[];
}

/** What the claimant is told about a file the virus scan holds back; null when there is nothing to say. */
export function scanNotice(status: ScanStatus): string | null {
  if (status === 'infected')
    return 'Our virus check found a threat in this file, so it has been set aside and nobody will open it. Please send a clean copy of the document.';
  if (status === 'pending') return 'We are still checking this file for viruses. It reaches your claim handler once the check is done.';
  return null;
}

/**
 * Marks the claim's checklist item of this document type received exactly when the claim holds a file
 * of that type that is not quarantined.
 */
export async function refreshChecklistItem(
  db: Knex,
  claim: Pick<Claim, 'claim_id' | 'required_documents'>,
  documentType: string,
): Promise<void> {
  const item = claim.required_documents.find((document) => document.type === documentType);
  if (!item) return;
  const received = await attachmentsStore(db).hasUsableDocument(claim.claim_id, documentType);
  if (received === item.received) return;
  await claimStore(db).updateRequiredDocuments(
    claim.claim_id,
    claim.required_documents.map((document) => (document.type === documentType ? { ...document, received } : document)),
  );
}

/**
 * Files a claimant's upload on their claim, on one transaction (use `transactional`): each file is put
 * at its content address under a per-content lock, its row inserted once per claim with its scan
 * status, the checklist item marked received unless the file is quarantined, and an audit entry plus
 * `claim.attachment_added` written for each new attachment. `place` is the upload path's (upload-path.ts). A
 * sealed file of content the claim already holds is removed again (its encrypted copy is nobody's), under the
 * content lock the placing took.
 */
export function attachmentService(settings: { exchange: string; storage: FileStorage }) {
  return (db: Knex) => ({
    async addAttachments(claimId: string, upload: ScannedUpload, place: (trx: Knex) => Promise<void>): Promise<AttachmentResult[]> {
      const claim = await claimStore(db).find(claimId, { forUpdate: true });
      if (!claim) throw problems.notFound('No such claim');
      if (claim.stage === 'closed') throw problems.conflict('The claim is closed; it takes no more attachments');
      const documentType = upload.documentType ?? 'other';
      const checklistTypes = claim.required_documents.map((document) => document.type);
      if (documentType !== 'other' && !checklistTypes.includes(documentType)) {
        throw problems.badRequest(
          `document_type must be one of this claim's checklist types or "other": ${[...checklistTypes, 'other'].join(', ')}`,
          [{ pointer: '/document_type', message: 'is not a document type of this claim' }],
        );
      }

      await place(db);
      const results: AttachmentResult[] = [];
      for (const file of upload.files) {
        const { attachment, duplicate } = await attachmentsStore(db).insertOnce({
          id: file.attachmentId ?? randomUUID(),
          claim_id: claimId,
          sha256: file.sha256,
          stored_sha256: file.storedAs ?? null,
          size_bytes: file.sizeBytes,
          content_type: file.contentType,
          filename: file.filename,
          document_type: documentType,
          description: upload.description ?? null,
          scan_status: file.scan.status,
          scan_signature: file.scan.signature,
          scanned_at: file.scan.status === 'clean' || file.scan.status === 'infected' ? new Date().toISOString() : null,
        });
        const { description: _description, ...shown } = attachment;
        results.push({ ...shown, duplicate, scan_notice: scanNotice(attachment.scan_status) });
        if (duplicate && file.storedAs) await settings.storage.remove(file.storedAs);
        if (duplicate) continue;
        await recordClaimChange(db, settings.exchange, {
          claimId,
          event: claimAttachmentAdded,
          actor: 'claimant',
          data: {
            claim_number: claim.claim_number,
            attachment_id: attachment.attachment_id,
            sha256: attachment.sha256,
            size_bytes: attachment.size_bytes,
            content_type: attachment.content_type,
            document_type: attachment.document_type,
            received_at: attachment.received_at,
            scan_status: attachment.scan_status,
            scan_signature: file.scan.signature,
          },
          timeline: {
            action: 'attachment.added',
            data: {
              attachment_id: attachment.attachment_id,
              sha256: attachment.sha256,
              document_type: attachment.document_type,
              size_bytes: attachment.size_bytes,
              scan_status: attachment.scan_status,
              scan_signature: file.scan.signature,
            },
          },
        });
      }

      await refreshChecklistItem(db, claim, documentType);
      return results;
    },
  });
}
