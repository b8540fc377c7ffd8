import path from 'node:path';
import type { Knex } from '@platform/db';
import { UUID_PATTERN } from '../claims/claim-store';

/** An attachment as the adjuster side sees it. */
export interface KitAttachment {
  attachment_id: string;
  filename: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  document_type: string;
  description: string | null;
  received_at: string;
  download_url: string;
}

interface AttachmentRow {
  id: string;
  filename: string;
  content_type: string;
  size_bytes: string | number;
  sha256: string;
  document_type: string;
  description: string | null;
  received_at: Date;
}

export function attachmentContentPath(claimId: string, attachmentId: string): string {
  return `/api/claims/claims/${claimId}/attachments/${attachmentId}/content`;
}

function toKitAttachment(claimId: string, row: AttachmentRow): KitAttachment {
  return {
    attachment_id: row.id,
    filename: row.filename,
    content_type: row.content_type,
    size_bytes: Number(row.size_bytes),
    sha256: row.sha256,
    document_type: row.document_type,
    description: row.description,
    received_at: new Date(row.received_at).toISOString(),
    download_url: attachmentContentPath(claimId, row.id),
  };
}

export async function listKitAttachments(db: Knex, claimId: string): Promise<KitAttachment[]> {
  const rows = await db('attachments').where({ claim_id: claimId }).orderBy([{ column: 'received_at' }, { column: 'id' }]);
  return (rows as AttachmentRow[]).map((row) => toKitAttachment(claimId, row));
}

export async function findKitAttachment(db: Knex, claimId: string, attachmentId: string): Promise<KitAttachment | undefined> {
  if (!UUID_PATTERN.test(attachmentId)) return undefined;
  const row = await db('attachments').where({ claim_id: claimId, id: attachmentId }).first();
  return row ? toKitAttachment(claimId, row as AttachmentRow) : undefined;
}

/** Where the claims core keeps a file: content-addressed, `<dataDir>/claims/attachments/<sha[0..2]>/<sha>`. */
export function storedFilePath(dataDir: string, sha256: string): string {
  return path.join(dataDir, 'claims', 'attachments', sha256.slice(0, 2), sha256);
}
