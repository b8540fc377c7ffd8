import { EventEmitter } from 'node:events';
import type { Knex } from '@platform/db';
import { GENESIS_HASH, chainTimestamp, recordHash, type AuditRecord, type AuditSource } from './audit-chain';

/**
 * Transaction-scoped advisory lock that serialises every writer of the chain (and the checkpointer):
 * two appends never read the same head, so the chain never forks. It is released at commit or
 * rollback, so a rolled-back append leaves no gap.
 */
export const AUDIT_CHAIN_LOCK = 1635083369; // 'audi'

export interface AuditRecordInput {
  action: string;
  source: AuditSource;
  entity_type: string;
  entity_id: string;
  actor: string;
  event_id?: string | null;
  /** When the fact happened; defaults to the time of recording. Any ISO 8601 form; stored in UTC with ms. */
  occurred_at?: string;
  data: Record<string, unknown>;
}

export interface AuditCheckpoint {
  seq: number;
  hash: string;
  signed_at: string;
  signature: string;
  key_id: string;
}

/** Same-process notice of committed appends (the checkpointer counts them). */
export const auditSignals = new EventEmitter();
auditSignals.setMaxListeners(50);

interface AuditRow extends Omit<AuditRecord, 'seq'> {
  seq: string | number;
}

export function toAuditRecord(row: AuditRow): AuditRecord {
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

export function toCheckpoint(row: Omit<AuditCheckpoint, 'seq'> & { seq: string | number }): AuditCheckpoint {
  return { seq: Number(row.seq), hash: row.hash, signed_at: row.signed_at, signature: row.signature, key_id: row.key_id };
}

export async function lockAuditChain(trx: Knex): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(?)', [AUDIT_CHAIN_LOCK]);
}

export async function chainHead(db: Knex): Promise<{ seq: number; hash: string } | undefined> {
  const row = await db('audit_log').select('seq', 'hash').orderBy('seq', 'desc').first();
  return row ? { seq: Number(row.seq), hash: row.hash } : undefined;
}

/**
 * Appends one record to the chain on the caller's transaction, so the change and its audit record
 * commit together (called outside a transaction, it opens its own). Returns the stored record.
 */
export async function appendAuditRecord(trx: Knex, input: AuditRecordInput): Promise<AuditRecord> {
  if (!trx.isTransaction) return trx.transaction((inner) => appendAuditRecord(inner, input));
  // JSON round trip: the hashed data is exactly what jsonb stores and returns (no undefined, no Dates).
  const data = JSON.parse(JSON.stringify(input.data ?? {})) as Record<string, unknown>;
  await lockAuditChain(trx);
  const head = await chainHead(trx);
  const recordedAt = chainTimestamp(new Date());
  const unsigned: Omit<AuditRecord, 'hash'> = {
    seq: (head?.seq ?? 0) + 1,
    action: input.action,
    source: input.source,
    entity_type: input.entity_type,
    entity_id: input.entity_id,
    actor: input.actor,
    event_id: input.event_id ?? null,
    occurred_at: input.occurred_at === undefined ? recordedAt : chainTimestamp(input.occurred_at),
    recorded_at: recordedAt,
    data,
    prev_hash: head?.hash ?? GENESIS_HASH,
  };
  const record: AuditRecord = { ...unsigned, hash: recordHash(unsigned) };
  await trx('audit_log').insert({ ...record, data: JSON.stringify(record.data) });
  const committed = (trx as Knex.Transaction).executionPromise;
  committed?.then(() => auditSignals.emit('appended', record.seq), () => undefined);
  return record;
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

/** Records oldest first (or newest first) after `after_seq` and up to `to_seq`, filtered. */
export async function listAuditRecords(db: Knex, filter: AuditRecordFilter): Promise<AuditRecord[]> {
  const query = db('audit_log').orderBy('seq', filter.newest_first ? 'desc' : 'asc').limit(filter.limit);
  if (filter.entity_id !== undefined) query.where('entity_id', filter.entity_id);
  if (filter.source !== undefined) query.where('source', filter.source);
  if (filter.action !== undefined) query.where('action', filter.action);
  if (filter.after_seq !== undefined) query.where('seq', '>', filter.after_seq);
  if (filter.to_seq !== undefined) query.where('seq', '<=', filter.to_seq);
  return (await query).map(toAuditRecord);
}

/** Records with seq in [fromSeq, toSeq], oldest first, at most `limit` (one page of a keyset walk). */
export async function auditRecordsPage(db: Knex, fromSeq: number, toSeq: number | undefined, limit: number): Promise<AuditRecord[]> {
  const query = db('audit_log').where('seq', '>=', fromSeq).orderBy('seq', 'asc').limit(limit);
  if (toSeq !== undefined) query.where('seq', '<=', toSeq);
  return (await query).map(toAuditRecord);
}

export async function auditRecordAt(db: Knex, seq: number): Promise<AuditRecord | undefined> {
  const row = await db('audit_log').where('seq', seq).first();
  return row ? toAuditRecord(row) : undefined;
}

export async function listCheckpoints(db: Knex, filter: { after_seq?: number; to_seq?: number; limit: number }): Promise<AuditCheckpoint[]> {
  const query = db('audit_checkpoints').orderBy('seq', 'asc').limit(filter.limit);
  if (filter.after_seq !== undefined) query.where('seq', '>', filter.after_seq);
  if (filter.to_seq !== undefined) query.where('seq', '<=', filter.to_seq);
  return (await query).map(toCheckpoint);
}

export async function latestCheckpoint(db: Knex): Promise<AuditCheckpoint | undefined> {
  const row = await db('audit_checkpoints').orderBy('seq', 'desc').first();
  return row ? toCheckpoint(row) : undefined;
}

/** The newest signed checkpoint, if it covers (is at or after) record `seq`; else null. */
export async function latestCheckpointCovering(db: Knex, seq: number): Promise<AuditCheckpoint | null> {
  const checkpoint = await latestCheckpoint(db);
  return checkpoint && checkpoint.seq >= seq ? checkpoint : null;
}

export async function insertCheckpoint(trx: Knex, checkpoint: AuditCheckpoint): Promise<void> {
  await trx('audit_checkpoints').insert(checkpoint);
}
