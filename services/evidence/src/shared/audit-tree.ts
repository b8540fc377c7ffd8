import type { Knex } from '@platform/db';
import {
  appendSiblings,
  completeSubtrees,
  frontierAppend,
  hashLeaf,
  nodesCompletedByAppend,
  rootHash,
  type NodeId,
  type NodeLookup,
} from '@platform/merkle';
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
      .whereIn(
        ['level', 'idx'],
        nodes.map((node) => [node.level, node.index]),
      );
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
 * The tree's right edge (the hashes of completeSubtrees({ start: 0, end: seq })) after the chain record
 * (seq, hash) that this process last appended. The chain hash covers every earlier record, so the key fixes
 * the frontier: an append whose head is still that record needs no node read, and an append by another writer
 * (another replica, the seeding bench) changes the head, so the next append here misses and reads the
 * frontier once. Set before commit: a rolled-back record is never read as the head, so its entry is unused.
 */
let cachedFrontier: { seq: number; hash: string; frontier: Buffer[] } | undefined;

/** Forgets the cached frontier (tests compare appends with and without it). */
export function forgetAuditFrontier(): void {
  cachedFrontier = undefined;
}

/** The chain link of an appended record: the head it follows and its own hash, which key the frontier cache. */
export interface ChainLink {
  prevHash: string;
  hash: string;
}

async function frontierBefore(trx: Knex, seq: number, prevHash: string): Promise<Buffer[]> {
  if (cachedFrontier && cachedFrontier.seq === seq - 1 && cachedFrontier.hash === prevHash) return [...cachedFrontier.frontier];
  const nodes = completeSubtrees({ start: 0, end: seq - 1 });
  const nodeAt = await readTreeNodes(trx, nodes);
  return nodes.map((node) => Buffer.from(nodeAt(node)));
}

/** A lookup of the nodes of a frontier (the left siblings an append needs are all on it). */
function frontierLookup(size: number, frontier: Buffer[]): NodeLookup {
  const byNode = new Map(completeSubtrees({ start: 0, end: size }).map((node, i) => [`${node.level}/${node.index}`, frontier[i]]));
  return (node) => {
    const hash = byNode.get(`${node.level}/${node.index}`);
    if (!hash) throw new Error(`audit tree node ${node.level}/${node.index} is not on the frontier of ${size}`);
    return hash;
  };
}

/**
 * Adds record `seq`'s canonical bytes as leaf seq - 1, with the subtrees it completes, in one statement
 * together with `alsoInsert` (the record itself, on append). Needs the chain lock. With the record's chain
 * link (appends), the left siblings come from the cached frontier when the head is the one cached.
 */
export async function addAuditLeaf(
  trx: Knex,
  seq: number,
  leafBytes: Buffer,
  alsoInsert?: Knex.QueryBuilder,
  link?: ChainLink,
): Promise<void> {
  const index = seq - 1;
  const leafHash = hashLeaf(leafBytes);
  let nodeAt: NodeLookup;
  let frontier: Buffer[] | undefined;
  if (link) {
    frontier = await frontierBefore(trx, seq, link.prevHash);
    nodeAt = frontierLookup(index, frontier);
  } else {
    nodeAt = await readTreeNodes(trx, appendSiblings(index));
  }
  const nodes = nodesCompletedByAppend(index, leafHash, nodeAt);
  const inserts = [
    ...(alsoInsert ? [alsoInsert] : []),
    trx('audit_leaves').insert({ seq, leaf_bytes: leafBytes }),
    trx('audit_tree_nodes').insert(nodes.map((node) => ({ level: node.level, idx: node.index, hash: node.hash }))),
  ].map((query) => query.toSQL());
  const last = inserts.pop()!;
  const ctes = inserts.map((insert, i) => `i${i} AS (${insert.sql})`).join(', ');
  await trx.raw(`WITH ${ctes} ${last.sql}`, [...inserts.flatMap((insert) => insert.bindings), ...last.bindings]);
  if (link && frontier) {
    frontierAppend(frontier, index, leafHash);
    cachedFrontier = { seq, hash: link.hash, frontier };
  }
}

/**
 * Brings the tree up to record `headSeq`. Records appended before the tree existed (migration
 * 0008_audit_tree) have no leaves yet: they are canonicalised here once, in order, the first time a
 * writer holding the chain lock (an append or a checkpoint) finds the tree behind. Idempotent.
 */
export async function catchUpAuditTree(trx: Knex, headSeq: number): Promise<void> {
  for (let size = await auditTreeSize(trx); size < headSeq;) {
    const rows: AuditRecord[] = await trx('audit_log')
      .where('seq', '>', size)
      .andWhere('seq', '<=', headSeq)
      .orderBy('seq')
      .limit(CATCH_UP_PAGE);
    if (rows.length === 0) return;
    for (const row of rows) {
      const seq = Number(row.seq);
      if (seq !== size + 1) return; // a gap in the log: the tree stops before it, and verification names the gap
      await addAuditLeaf(trx, seq, Buffer.from(canonicalRecord({ ...row, seq, event_id: row.event_id ?? null }), 'utf8'));
      size = seq;
    }
  }
}
