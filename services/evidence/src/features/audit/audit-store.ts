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
  return {
    seq: Number(row.seq),
    hash: row.hash,
    signed_at: row.signed_at,
    signature: row.signature,
    key_id: row.key_id,
    note: row.note ?? null,
  };
}

/** A record as verification reads it (see treeRecordsPage). */
export interface TreeRecord {
  seq: number;
  prev_hash: string;
  hash: string;
  leaf_bytes: Buffer | null;
  leaf_hash: Buffer | null;
  row_matches: boolean;
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
      const query = db('audit_log')
        .orderBy('seq', filter.newest_first ? 'desc' : 'asc')
        .limit(filter.limit);
      if (filter.entity_id !== undefined) query.where('entity_id', filter.entity_id);
      if (filter.source !== undefined) query.where('source', filter.source);
      if (filter.action !== undefined) query.where('action', filter.action);
      if (filter.after_seq !== undefined) query.where('seq', '>', filter.after_seq);
      if (filter.to_seq !== undefined) query.where('seq', '<=', filter.to_seq);
      return (await query).map(toAuditRecord);
    },

    /**
     * Records with seq in [fromSeq, toSeq] as verification reads them: the chain fields, the record's stored
     * canonical bytes and leaf hash (null when missing), and whether the row still says what those bytes say
     * (compared as jsonb by PostgreSQL, so nothing is canonicalised again).
     */
    async treeRecordsPage(fromSeq: number, toSeq: number | undefined, limit: number): Promise<TreeRecord[]> {
      const { rows } = await db.raw(
        `select l.seq, l.prev_hash, l.hash, f.leaf_bytes, n.hash as leaf_hash,
                convert_from(f.leaf_bytes, 'UTF8')::jsonb = jsonb_build_object(
                  'seq', l.seq, 'action', l.action, 'source', l.source, 'entity_type', l.entity_type, 'entity_id', l.entity_id,
                  'actor', l.actor, 'event_id', l.event_id, 'occurred_at', l.occurred_at, 'recorded_at', l.recorded_at,
                  'data', l.data, 'prev_hash', l.prev_hash) as row_matches
           from "audit_log" l
           left join "audit_leaves" f on f.seq = l.seq
           left join "audit_tree_nodes" n on n.level = 0 and n.idx = l.seq - 1
          where l.seq >= ? and l.seq <= ?
          order by l.seq
          limit ?`,
        [fromSeq, toSeq ?? Number.MAX_SAFE_INTEGER, limit],
      );
      // Embedded PGlite gives bytea as Uint8Array: viewed as a Buffer, not copied.
      const bytes = (value: Uint8Array | null) =>
        value === null || Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      return rows.map((row: TreeRecord & { seq: string }) => ({
        ...row,
        seq: Number(row.seq),
        leaf_bytes: bytes(row.leaf_bytes),
        leaf_hash: bytes(row.leaf_hash),
        row_matches: row.row_matches === true,
      }));
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

    /** The newest signed tree head (C2SP checkpoint note), if any checkpoint has one. */
    async latestTreeHead(): Promise<string | undefined> {
      const row = await db('audit_checkpoints').whereNotNull('note').orderBy('seq', 'desc').select('note').first();
      return row?.note;
    },

    async insertCheckpoint(checkpoint: AuditCheckpoint): Promise<void> {
      await db('audit_checkpoints').insert(checkpoint);
    },
  };
}
