import type { Knex } from '@platform/db';
import { appendSiblings, hashLeaf, nodesCompletedByAppend, rootHash, completeSubtrees, type NodeId, type NodeLookup } from '@platform/merkle';
import { canonicalRecord, type AuditRecord } from './audit-chain';

/**
 * The audit log's RFC 9162 Merkle tree in PostgreSQL: leaf i is record seq i + 1, its bytes the record's
 * canonical JSON as hashed into the chain (audit_leaves), and every complete subtree's hash stored once
 * (audit_tree_nodes, level 0 = leaf hashes). Writers hold the chain lock.
 */

const CATCH_UP_PAGE = 500;

/** Reads the given nodes in one query; the lookup throws for a node that is not stored. */
export async function readTreeNodes(db: Knex, nodes: NodeId[]): Promise<NodeLookup> {
  const found = new Map<string, Buffer>();
  if (nodes.length > 0) {
    const rows: { level: number; idx: string | number; hash: Buffer }[] = await db('audit_tree_nodes')
      .select('level', 'idx', 'hash')
      .whereIn(['level', 'idx'], nodes.map((node) => [node.level, node.index]));
    for (const row of rows) found.set(`${row.level}/${row.idx}`, row.hash);
  }
  return (node) => {
    const hash = found.get(`${node.level}/${node.index}`);
    if (!hash) throw new Error(`audit tree node ${node.level}/${node.index} is missing`);
    return hash;
  };
}

/** How many records the tree holds (its leaves are always seq 1..size). */
export async function auditTreeSize(db: Knex): Promise<number> {
  const row = await db('audit_leaves').max('seq as size').first();
  return Number(row?.size ?? 0);
}

/** The root hash of the tree of the first `size` records: at most log2(size) node reads. */
export async function auditTreeRoot(db: Knex, size: number): Promise<Buffer> {
  return rootHash(size, await readTreeNodes(db, completeSubtrees({ start: 0, end: size })));
}

/**
 * Adds record `seq`'s canonical bytes as leaf seq - 1, with the subtrees it completes, in one statement
 * together with `alsoInsert` (the record itself, on append). Needs the chain lock.
 */
export async function addAuditLeaf(trx: Knex, seq: number, leafBytes: Buffer, alsoInsert?: Knex.QueryBuilder): Promise<void> {
  const index = seq - 1;
  const nodeAt = await readTreeNodes(trx, appendSiblings(index));
  const nodes = nodesCompletedByAppend(index, hashLeaf(leafBytes), nodeAt);
  const inserts = [
    ...(alsoInsert ? [alsoInsert] : []),
    trx('audit_leaves').insert({ seq, leaf_bytes: leafBytes }),
    trx('audit_tree_nodes').insert(nodes.map((node) => ({ level: node.level, idx: node.index, hash: node.hash }))),
  ].map((query) => query.toSQL());
  const last = inserts.pop()!;
  const ctes = inserts.map((insert, i) => `i${i} AS (${insert.sql})`).join(', ');
  await trx.raw(`WITH ${ctes} ${last.sql}`, [...inserts.flatMap((insert) => insert.bindings), ...last.bindings]);
}

/**
 * Brings the tree up to record `headSeq`. Records appended before the tree existed (migration
 * 0008_audit_tree) have no leaves yet: they are canonicalised here once, in order, the first time a
 * writer holding the chain lock (an append or a checkpoint) finds the tree behind. Idempotent.
 */
export async function catchUpAuditTree(trx: Knex, headSeq: number): Promise<void> {
  for (let size = await auditTreeSize(trx); size < headSeq; ) {
    const rows: AuditRecord[] = await trx('audit_log').where('seq', '>', size).andWhere('seq', '<=', headSeq).orderBy('seq').limit(CATCH_UP_PAGE);
    if (rows.length === 0) return;
    for (const row of rows) {
      const seq = Number(row.seq);
      if (seq !== size + 1) return; // a gap in the log: the tree stops before it, and verification names the gap
      await addAuditLeaf(trx, seq, Buffer.from(canonicalRecord({ ...row, seq, event_id: row.event_id ?? null }), 'utf8'));
      size = seq;
    }
  }
}
