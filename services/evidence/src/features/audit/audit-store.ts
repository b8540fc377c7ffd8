import type { Knex } from '@platform/db';
import type { AuditRecord, AuditSource } from '../../shared/audit-chain';
import type { AuditCheckpoint } from './audit-schemas';

/** Rows as PostgreSQL returns them: bigint seq as text, jsonb data possibly as text. */
type AuditRow = Omit<AuditRecord, 'seq' | 'data'> & { seq: string | number; data: AuditRecord['data'] | string };
type CheckpointRow = Omit<AuditCheckpoint, 'seq'> & { seq: string | number };

function toAuditRecord(row: AuditRow): AuditRecord {
  return {
    seq: Number(row.seq),
    action: row.action,
    source: row.source,
    entity_type: row.entity_type,
    entity_id: row.entity_id,
    actor: row.actor,
    event_id: row.event_id ?? null,
    occurred_at: row.occurred_at,
    recorded_at: row.recorded_at,
    data: typeof row.data === 'string' ? JSON.parse(row.data) : row.data,
    prev_hash: row.prev_hash,
    hash: row.hash,
  };
}

function toCheckpoint(row: CheckpointRow): AuditCheckpoint {
  return { seq: Number(row.seq), hash: row.hash, signed_at: row.signed_at, signature: row.signature, key_id: row.key_id };
}

export interface AuditRecordFilter {
  entity_id?: string;
  source?: AuditSource;
  action?: string;
  after_seq?: number;
  to_seq?: number;
  limit: number;
  newest_first?: boolean;
}

/** Reads of the audit log and its checkpoints (appends go through shared/audit-append). */
export function auditStore(db: Knex) {
  async function latestCheckpoint(): Promise<AuditCheckpoint | undefined> {
    const row = await db('audit_checkpoints').orderBy('seq', 'desc').first();
    return row ? toCheckpoint(row) : undefined;
  }

  return {
    /** Records oldest first (or newest first) after `after_seq` and up to `to_seq`, filtered. */
    async listRecords(filter: AuditRecordFilter): Promise<AuditRecord[]> {
      const query = db('audit_log').orderBy('seq', filter.newest_first ? 'desc' : 'asc').limit(filter.limit);
      if (filter.entity_id !== undefined) query.where('entity_id', filter.entity_id);
      if (filter.source !== undefined) query.where('source', filter.source);
      if (filter.action !== undefined) query.where('action', filter.action);
      if (filter.after_seq !== undefined) query.where('seq', '>', filter.after_seq);
      if (filter.to_seq !== undefined) query.where('seq', '<=', filter.to_seq);
      return (await query).map(toAuditRecord);
    },

    /** Records with seq in [fromSeq, toSeq], oldest first, at most `limit` (one page of a keyset walk). */
    async recordsPage(fromSeq: number, toSeq: number | undefined, limit: number): Promise<AuditRecord[]> {
      const query = db('audit_log').where('seq', '>=', fromSeq).orderBy('seq', 'asc').limit(limit);
      if (toSeq !== undefined) query.where('seq', '<=', toSeq);
      return (await query).map(toAuditRecord);
    },

    async recordAt(seq: number): Promise<AuditRecord | undefined> {
      const row = await db('audit_log').where('seq', seq).first();
      return row ? toAuditRecord(row) : undefined;
    },

    async listCheckpoints(filter: { after_seq?: number; to_seq?: number; limit: number }): Promise<AuditCheckpoint[]> {
      const query = db('audit_checkpoints').orderBy('seq', 'asc').limit(filter.limit);
      if (filter.after_seq !== undefined) query.where('seq', '>', filter.after_seq);
      if (filter.to_seq !== undefined) query.where('seq', '<=', filter.to_seq);
      return (await query).map(toCheckpoint);
    },

    latestCheckpoint,

    async insertCheckpoint(checkpoint: AuditCheckpoint): Promise<void> {
      await db('audit_checkpoints').insert(checkpoint);
    },
  };
}
