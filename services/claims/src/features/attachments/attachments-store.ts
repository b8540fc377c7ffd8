import type { Knex } from '@platform/db';
import type { ScanOutcome, ScanStatus } from '@platform/files';
import type { Attachment } from '../../shared/attachment';

interface AttachmentRow {
  id: string;
  claim_id: string;
  filename: string;
  content_type: string;
  size_bytes: string | number;
  sha256: string;
  document_type: string;
  description: string | null;
  received_at: Date;
  scan_status: ScanStatus;
}

function toAttachment(row: AttachmentRow): Attachment {
  return {
    attachment_id: row.id,
    filename: row.filename,
    content_type: row.content_type,
    size_bytes: Number(row.size_bytes),
    sha256: row.sha256,
    document_type: row.document_type,
    description: row.description,
    received_at: new Date(row.received_at).toISOString(),
    scan_status: row.scan_status,
  };
}

export interface NewAttachment {
  id: string;
  claim_id: string;
  sha256: string;
  size_bytes: number;
  content_type: string;
  filename: string;
  document_type: string;
  description: string | null;
  scan_status: ScanStatus;
  scan_signature: string | null;
  scanned_at: string | null;
  /** Where its encrypted bytes are stored (claim-files.ts); null when stored in plain text at `sha256`. */
  stored_sha256: string | null;
}

/** Narrows an attachments query to the rows whose file is the stored object at `address` (its content address). */
export function storedAt(query: Knex.QueryBuilder, address: string, table = 'attachments'): Knex.QueryBuilder {
  return query.where((rows) =>
    rows
      .where(`${table}.stored_sha256`, address)
      .orWhere((plain) => plain.where(`${table}.sha256`, address).whereNull(`${table}.stored_sha256`)),
  );
}

export function attachmentsStore(db: Knex) {
  return {
    /**
     * Stores an attachment unless the claim already has the same content. Returns the stored attachment
     * and whether it was there before (`duplicate`).
     */
    async insertOnce(attachment: NewAttachment): Promise<{ attachment: Attachment; duplicate: boolean }> {
      const inserted = (await db('attachments')
        .insert(attachment)
        .onConflict(['claim_id', 'sha256'])
        .ignore()
        .returning('*')) as AttachmentRow[];
      if (inserted.length > 0) return { attachment: toAttachment(inserted[0]), duplicate: false };
      const existing = (await db('attachments')
        .where({ claim_id: attachment.claim_id, sha256: attachment.sha256 })
        .first()) as AttachmentRow;
      return { attachment: toAttachment(existing), duplicate: true };
    },

    async listOfClaim(claimId: string): Promise<Attachment[]> {
      const rows = (await db('attachments')
        .where({ claim_id: claimId })
        .orderBy([{ column: 'received_at' }, { column: 'id' }])) as AttachmentRow[];
      return rows.map(toAttachment);
    },

    /** True when any claim's attachment row refers to the stored object at this content address. */
    async contentIsReferenced(address: string): Promise<boolean> {
      return (await storedAt(db('attachments'), address).first('id')) !== undefined;
    },

    /** An attachment waiting for its virus scan, claimed for this transaction (other replicas skip it). */
    async claimPending(): Promise<{ id: string; claim_id: string; sha256: string } | undefined> {
      return db('attachments')
        .where({ scan_status: 'pending' })
        .orderBy([{ column: 'received_at' }, { column: 'id' }])
        .forUpdate()
        .skipLocked()
        .first('id', 'claim_id', 'sha256');
    },

    async recordScanOutcome(attachmentId: string, outcome: ScanOutcome): Promise<Attachment> {
      const [row] = (await db('attachments')
        .where({ id: attachmentId })
        .update({ scan_status: outcome.status, scan_signature: outcome.signature, scanned_at: db.raw('clock_timestamp()') })
        .returning('*')) as AttachmentRow[];
      return toAttachment(row);
    },

    /** True when the claim holds a file of this document type that is not quarantined (what the checklist counts). */
    async hasUsableDocument(claimId: string, documentType: string): Promise<boolean> {
      return (
        (await db('attachments')
          .where({ claim_id: claimId, document_type: documentType })
          .whereNot({ scan_status: 'infected' })
          .first('id')) !== undefined
      );
    },
  };
}

export type AttachmentsStore = ReturnType<typeof attachmentsStore>;
