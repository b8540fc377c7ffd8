import type { Knex } from '@platform/db';
import { problems } from '@platform/http';
import { consistencyProofRanges, inclusionProofRanges, nodesFor, rangeHash, type LeafRange } from '@platform/merkle';
import { auditTreeSize, readTreeNodes } from '../../shared/audit-tree';
import type { ConsistencyProof, InclusionProof } from './audit-schemas';

/** The proof elements for `ranges`, from one read of the O(log n) stored subtrees they need. */
async function proofHashes(db: Knex, ranges: LeafRange[], extra: { level: number; index: number }[] = []) {
  const nodeAt = await readTreeNodes(db, [...nodesFor(ranges), ...extra]);
  return { nodeAt, proof: ranges.map((range) => rangeHash(range, nodeAt).toString('base64')) };
}

async function assertWithinTree(db: Knex, size: number, pointer: string): Promise<void> {
  const current = await auditTreeSize(db);
  if (size > current)
    throw problems.badRequest(`Query: the tree has ${current} records`, [{ pointer, message: `must be at most ${current}` }]);
}

/** RFC 9162 inclusion proof of leaf `index` (record seq index + 1) in the tree of the first `treeSize` records. */
export async function auditInclusionProof(db: Knex, index: number, treeSize: number): Promise<InclusionProof> {
  if (index >= treeSize)
    throw problems.badRequest('Query: index must be less than tree_size', [{ pointer: '/index', message: 'must be less than tree_size' }]);
  await assertWithinTree(db, treeSize, '/tree_size');
  const leaf = { level: 0, index };
  const { nodeAt, proof } = await proofHashes(db, inclusionProofRanges(index, treeSize), [leaf]);
  return { leaf_index: index, tree_size: treeSize, leaf_hash: Buffer.from(nodeAt(leaf)).toString('base64'), proof };
}

/** RFC 9162 consistency proof between the trees of the first `from` and `to` records. */
export async function auditConsistencyProof(db: Knex, from: number, to: number): Promise<ConsistencyProof> {
  if (from > to)
    throw problems.badRequest('Query: from must not be after to', [{ pointer: '/from', message: 'must be less than or equal to to' }]);
  await assertWithinTree(db, to, '/to');
  const { proof } = await proofHashes(db, consistencyProofRanges(from, to));
  return { from, to, proof };
}
