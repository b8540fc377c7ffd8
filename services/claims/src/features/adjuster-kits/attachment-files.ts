import type { Knex } from '@platform/db';
import { attachmentsStore } from '../attachments';
import type { Attachment } from '../../shared/attachment';

/** An attachment as the adjuster side sees it: the claims core's attachment plus where to download it. */
export interface KitAttachment extends Attachment {
  download_url: string;
}

export function attachmentContentPath(claimId: string, attachmentId: string): string {
  return `/api/claims/claims/${claimId}/attachments/${attachmentId}/content`;
}

export async function listKitAttachments(db: Knex, claimId: string): Promise<KitAttachment[]> {
  return (await attachmentsStore(db).listOfClaim(claimId)).map((attachment) => ({
    ...attachment,
    download_url: attachmentContentPath(claimId, attachment.attachment_id),
  }));
}

export async function findKitAttachment(db: Knex, claimId: string, attachmentId: string): Promise<KitAttachment | undefined> {
  return (await listKitAttachments(db, claimId)).find((attachment) => attachment.attachment_id === attachmentId.toLowerCase());
}
