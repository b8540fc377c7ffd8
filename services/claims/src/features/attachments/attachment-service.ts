import { randomUUID } from 'node:crypto';
import type { Knex } from '@platform/db';
import { problems } from '@platform/http';
import { createEvent, enqueueEvent } from '@platform/messaging';
import { appendClaimAudit, findClaim, updateRequiredDocuments } from '../claims/claim-store';
import { CLAIM_EVENT_SOURCE } from '../intake/intake-service';
import { placeFile, removeFile, storedFilePath } from './attachment-storage';
import { contentIsReferenced, insertAttachmentOnce, lockContent, type Attachment } from './attachment-store';
import type { ReceivedUpload } from './multipart-upload';

export interface AttachmentResult extends Omit<Attachment, 'description'> {
  duplicate: boolean;
}

export interface AttachmentSettings {
  exchange: string;
  dataDir: string;
}

/**
 * Files a claimant's upload on their claim, on one transaction (use `transactional`): each file is put
 * at its content address under a per-content lock, its row inserted once per claim, the checklist item
 * marked received, and an audit entry plus `claim.attachment_added` written for each new attachment.
 * `placed` collects the stored files this call created, so a failed transaction can remove them.
 */
export function attachmentService(settings: AttachmentSettings) {
  return (db: Knex) => ({
    async addAttachments(claimId: string, upload: ReceivedUpload, placed: string[]): Promise<AttachmentResult[]> {
      const claim = await findClaim(db, claimId, { forUpdate: true });
      if (!claim) throw problems.notFound('No such claim');
      if (claim.stage === 'closed') throw problems.conflict('The claim is closed; it takes no more attachments');
      const documentType = upload.documentType ?? 'other';
      const checklistTypes = claim.required_documents.map((document) => document.type);
      if (documentType !== 'other' && !checklistTypes.includes(documentType)) {
        throw problems.badRequest(`document_type must be one of this claim's checklist types or "other": ${[...checklistTypes, 'other'].join(', ')}`, [
          { pointer: '/document_type', message: 'is not a document type of this claim' },
        ]);
      }

      // Content locks in one global order, so concurrent uploads sharing files never deadlock.
      for (const sha256 of [...new Set(upload.files.map((file) => file.sha256))].sort()) await lockContent(db, sha256);
      const results: AttachmentResult[] = [];
      for (const file of upload.files) {
        if (await placeFile(file, settings.dataDir)) placed.push(file.sha256);
        const { attachment, duplicate } = await insertAttachmentOnce(db, {
          id: randomUUID(),
          claim_id: claimId,
          sha256: file.sha256,
          size_bytes: file.sizeBytes,
          content_type: file.contentType,
          filename: file.filename,
          document_type: documentType,
          description: upload.description ?? null,
        });
        const { description: _description, ...shown } = attachment;
        results.push({ ...shown, duplicate });
        if (duplicate) continue;
        await appendClaimAudit(db, {
          claim_id: claimId,
          action: 'attachment.added',
          actor: 'claimant',
          data: { attachment_id: attachment.attachment_id, sha256: attachment.sha256, document_type: attachment.document_type, size_bytes: attachment.size_bytes },
        });
        await enqueueEvent(db, settings.exchange, createEvent({
          source: CLAIM_EVENT_SOURCE,
          type: 'claim.attachment_added',
          subject: claimId,
          data: {
            claim_id: claimId,
            claim_number: claim.claim_number,
            actor: 'claimant',
            attachment_id: attachment.attachment_id,
            sha256: attachment.sha256,
            size_bytes: attachment.size_bytes,
            content_type: attachment.content_type,
            document_type: attachment.document_type,
            received_at: attachment.received_at,
          },
        }));
      }

      if (checklistTypes.includes(documentType) && claim.required_documents.some((document) => document.type === documentType && !document.received)) {
        await updateRequiredDocuments(db, claimId, claim.required_documents.map((document) => (document.type === documentType ? { ...document, received: true } : document)));
      }
      return results;
    },
  });
}

/**
 * After a failed upload transaction: removes the stored files it created unless, meanwhile, another
 * committed row refers to the same content (checked under the same per-content lock).
 */
export async function removeUnreferencedFiles(db: Knex, dataDir: string, sha256s: string[]): Promise<void> {
  for (const sha256 of sha256s) {
    await db.transaction(async (trx) => {
      await lockContent(trx, sha256);
      if (!(await contentIsReferenced(trx, sha256))) await removeFile(storedFilePath(dataDir, sha256));
    });
  }
}
