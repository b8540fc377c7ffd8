import type { Knex } from '@platform/db';
import { chainTimestamp, type AuditRecord, type AuditSource } from '../../shared/audit-chain';
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
  /**
   * The row and its leaf bytes were written by the same transaction (equal xmin) and neither since: the
   * row is the one the append derived the bytes from. Otherwise (a row or leaf rewritten behind the
   * triggers, a leaf added by the catch-up, a restored database) verification compares the row itself.
   */
  written_with_leaf: boolean;
}

/** One row of treeRecordsPage's statement (bytea columns as base64, see BYTES). */
interface TreeRecordRow {
  seq: string | number;
  prev_hash: string;
  hash: string;
  xmin: string;
  leaf_bytes: string | null;
  leaf_xmin: string | null;
  leaf_hash: string | null;
}

/**
 * Verification reads the stored bytes as base64 text, not as bytea: node-postgres receives bytea as hex
 * text (twice the bytes), and decoding ~1.9 KB of hex was the largest single cost of reading a page (2.5 µs
 * a record against 0.85 for the same bytes in base64; docs/BENCHMARKS.md). PostgreSQL's base64 (with its
 * line breaks) decodes to exactly the stored bytes.
 */
const BYTES = (column: string, name: string) => `encode(${column}, 'base64') AS ${name}`;

function fromBase64(value: string | null): Buffer | null {
  return value === null ? null : Buffer.from(value, 'base64');
}

export interface AuditRecordFilter {
  entity_id?: string;
  source?: AuditSource;
  action?: string;
  entity_type?: string;
  actor?: string;
  recorded_from?: string;
  recorded_before?: string;
  after_seq?: number;
  to_seq?: number;
  limit: number;
  newest_first?: boolean;
}

/** Reads of the audit log and its checkpoints (appends go through shared/audit-append). */
export function auditStore(db: Knex) {
  function recordsQuery(filter: AuditRecordFilter) {
    const query = db('audit_log')
      .orderBy('audit_log.seq', filter.newest_first ? 'desc' : 'asc')
      .limit(filter.limit);
    if (filter.entity_id !== undefined) query.where('entity_id', filter.entity_id);
    if (filter.source !== undefined) query.where('source', filter.source);
    if (filter.action !== undefined) query.where('action', filter.action);
    if (filter.entity_type !== undefined) query.where('entity_type', filter.entity_type);
    if (filter.actor !== undefined) query.where('actor', filter.actor);
    // recorded_at is ISO 8601 UTC text (chainTimestamp): the same form of the bound compares in time order.
    if (filter.recorded_from !== undefined) query.where('recorded_at', '>=', chainTimestamp(filter.recorded_from));
    if (filter.recorded_before !== undefined) query.where('recorded_at', '<', chainTimestamp(filter.recorded_before));
    if (filter.after_seq !== undefined) query.where('audit_log.seq', '>', filter.after_seq);
    if (filter.to_seq !== undefined) query.where('audit_log.seq', '<=', filter.to_seq);
    return query;
  }

  async function latestCheckpoint(): Promise<AuditCheckpoint | undefined> {
    const row = await db('audit_checkpoints').orderBy('seq', 'desc').first();
    return row ? toCheckpoint(row) : undefined;
  }

  /** treeRecordsPage for a page with a gap or the log's end in it: three range scans under its LIMIT. */
  async function treeRecordsPageAroundGaps(fromSeq: number, toSeq: number | undefined, limit: number): Promise<TreeRecord[]> {
    const rows: { seq: string | number; prev_hash: string; hash: string; xmin: string }[] = await db('audit_log')
      .select('seq', 'prev_hash', 'hash', db.raw('xmin::text AS xmin'))
      .where('seq', '>=', fromSeq)
      .andWhere('seq', '<=', toSeq ?? Number.MAX_SAFE_INTEGER)
      .orderBy('seq')
      .limit(limit);
    if (rows.length === 0) return [];
    const first = Number(rows[0].seq);
    const last = Number(rows[rows.length - 1].seq);
    const leaves = new Map<number, { leaf_bytes: string; xmin: string }>();
    for (const leaf of await db('audit_leaves')
      .select('seq', db.raw(BYTES('leaf_bytes', 'leaf_bytes')), db.raw('xmin::text AS xmin'))
      .whereBetween('seq', [first, last]))
      leaves.set(Number(leaf.seq), leaf);
    const leafHashes = new Map<number, string>();
    for (const node of await db('audit_tree_nodes')
      .select('idx', db.raw(BYTES('hash', 'hash')))
      .where('level', 0)
      .whereBetween('idx', [first - 1, last - 1]))
      leafHashes.set(Number(node.idx) + 1, node.hash);
    return rows.map((row) => {
      const seq = Number(row.seq);
      const leaf = leaves.get(seq);
      return {
        seq,
        prev_hash: row.prev_hash,
        hash: row.hash,
        leaf_bytes: fromBase64(leaf?.leaf_bytes ?? null),
        leaf_hash: fromBase64(leafHashes.get(seq) ?? null),
        written_with_leaf: leaf?.xmin === row.xmin,
      };
    });
  }

  return {
    /** Records oldest first (or newest first) after `after_seq` and up to `to_seq`, filtered, as their rows hold them. */
    async listRecords(filter: AuditRecordFilter): Promise<AuditRecord[]> {
      return (await recordsQuery(filter)).map(toAuditRecord);
    },

    /**
     * The same records as served to readers: each one's content parsed from the bytes the chain hashed
     * (its leaf), with its hash; the row's columns only find and order them. A row rewritten behind the
     * triggers — even together with its leaf row, so its xmin still matches and verification trusts it —
     * therefore never changes what a reader is served. A record without a leaf (one the catch-up has not
     * reached yet) is served from its row.
     */
    async listHashedRecords(filter: AuditRecordFilter): Promise<AuditRecord[]> {
      const rows: (AuditRow & { leaf_bytes: Uint8Array | null })[] = await recordsQuery(filter)
        .leftJoin('audit_leaves', 'audit_leaves.seq', 'audit_log.seq')
        .select('audit_log.*', 'audit_leaves.leaf_bytes');
      return rows.map(({ leaf_bytes, ...row }) =>
        leaf_bytes === null
          ? toAuditRecord(row)
          : { ...(JSON.parse(Buffer.from(leaf_bytes).toString('utf8')) as Omit<AuditRecord, 'hash'>), hash: row.hash },
      );
    },

    /**
     * Records with seq in [fromSeq, toSeq] as verification reads them: the chain fields, the record's stored
     * canonical bytes and leaf hash (null when missing), and whether row and leaf were written together.
     * Nothing is parsed or canonicalised in PostgreSQL. A gapless log fills the page's seq range exactly,
     * so it is read in one statement whose three tables are each bounded to that range (unbounded, the
     * planner once chose a scan from the log's start); a page with a gap or the log's end in it is read
     * with three range scans under the page's LIMIT, so verification still sees where the gap is.
     */
    async treeRecordsPage(fromSeq: number, toSeq: number | undefined, limit: number): Promise<TreeRecord[]> {
      const lastSeq = Math.min(toSeq ?? Number.MAX_SAFE_INTEGER, fromSeq + limit - 1);
      const { rows } = await db.raw(
        `SELECT l.seq, l.prev_hash, l.hash, l.xmin::text AS xmin, ${BYTES('f.leaf_bytes', 'leaf_bytes')}, f.xmin::text AS leaf_xmin,
                ${BYTES('n.hash', 'leaf_hash')}
         FROM audit_log l
         LEFT JOIN audit_leaves f ON f.seq = l.seq AND f.seq BETWEEN ? AND ?
         LEFT JOIN audit_tree_nodes n ON n.level = 0 AND n.idx = l.seq - 1 AND n.idx BETWEEN ? AND ?
         WHERE l.seq BETWEEN ? AND ?
         ORDER BY l.seq`,
        [fromSeq, lastSeq, fromSeq - 1, lastSeq - 1, fromSeq, lastSeq],
      );
      if (rows.length === lastSeq - fromSeq + 1)
        return (rows as TreeRecordRow[]).map((row) => ({
          seq: Number(row.seq),
          prev_hash: row.prev_hash,
          hash: row.hash,
          leaf_bytes: fromBase64(row.leaf_bytes),
          leaf_hash: fromBase64(row.leaf_hash),
          written_with_leaf: row.leaf_xmin === row.xmin,
        }));
      return treeRecordsPageAroundGaps(fromSeq, toSeq, limit);
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
