import { EventEmitter } from 'node:events';
import type { Knex } from '@platform/db';
import { inSpan } from '@platform/telemetry';
import { Gauge, type Registry } from 'prom-client';
import { GENESIS_HASH, canonicalRecord, chainHash, chainTimestamp, type AuditRecord, type AuditSource } from './audit-chain';
import { addAuditLeaf, catchUpAuditTree } from './audit-tree';

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

/** Same-process notice of committed appends (the checkpointer counts them). */
export const auditSignals = new EventEmitter();
auditSignals.setMaxListeners(50);

export async function lockAuditChain(trx: Knex): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(?)', [AUDIT_CHAIN_LOCK]);
}

/** The last record and how many records the Merkle tree holds (one query: appends read both). */
export async function chainHead(db: Knex): Promise<{ seq: number; hash: string; treeSize: number } | undefined> {
  const row = await db('audit_log')
    .select('seq', 'hash', db.raw('(SELECT coalesce(max(seq), 0) FROM audit_leaves) AS tree_size'))
    .orderBy('seq', 'desc')
    .first();
  return row ? { seq: Number(row.seq), hash: row.hash, treeSize: Number(row.tree_size) } : undefined;
}

/**
 * Appends one record to the chain, and as a leaf to its Merkle tree, on the caller's transaction, so the change and its audit record
 * commit together (called outside a transaction, it opens its own). Returns the stored record.
 */
export async function appendAuditRecord(trx: Knex, input: AuditRecordInput): Promise<AuditRecord> {
  if (!trx.isTransaction) return trx.transaction((inner) => appendAuditRecord(inner, input));
  return inSpan('audit.append', { attributes: { 'audit.action': input.action, 'audit.entity_type': input.entity_type } }, () =>
    appendLocked(trx, input),
  );
}

async function appendLocked(trx: Knex, input: AuditRecordInput): Promise<AuditRecord> {
  // JSON round trip: the hashed data is exactly what jsonb stores and returns (no undefined, no Dates).
  const data = JSON.parse(JSON.stringify(input.data ?? {})) as Record<string, unknown>;
  await lockAuditChain(trx);
  const head = await chainHead(trx);
  if (head && head.treeSize < head.seq) await catchUpAuditTree(trx, head.seq);
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
  // Canonicalised once: the chain hash and the Merkle leaf cover the same stored bytes.
  const leafBytes = Buffer.from(canonicalRecord(unsigned), 'utf8');
  const record: AuditRecord = { ...unsigned, hash: chainHash(unsigned.prev_hash, leafBytes) };
  await addAuditLeaf(trx, record.seq, leafBytes, trx('audit_log').insert({ ...record, data: JSON.stringify(record.data) }), {
    prevHash: record.prev_hash,
    hash: record.hash,
  });
  const committed = (trx as Knex.Transaction).executionPromise;
  committed?.then(
    () => auditSignals.emit('appended', record.seq),
    () => undefined,
  );
  return record;
}

/** `audit_chain_length`: how many records the chain holds, read at each scrape. */
export function measureAuditChain(db: Knex, metrics: Registry): void {
  new Gauge({
    name: 'audit_chain_length',
    help: 'Records in the audit hash chain (the sequence number of its head)',
    registers: [metrics],
    async collect() {
      try {
        const row = await db('audit_log').max<{ length: string | null }>({ length: 'seq' }).first();
        this.set(Number(row?.length ?? 0));
      } catch {
        // the database is down: /readyz says so; the gauge keeps its last value
      }
    },
  });
}
