import type { Knex } from '@platform/db';
import {
  consistencyProofRanges,
  inclusionProofRanges,
  nodesFor,
  parseCheckpoint,
  parseNote,
  rangeHash,
  type LeafRange,
} from '@platform/merkle';
import { readTreeNodes } from '../../shared/audit-tree';
import type { AuditConsistency, AuditRecordProof } from './verifier/binder-format';

/** Proof elements for each group of ranges, from one read of the stored subtrees they all need. */
async function proofs(db: Knex, groups: LeafRange[][]): Promise<string[][]> {
  const nodeAt = await readTreeNodes(db, nodesFor(groups.flat()));
  return groups.map((ranges) => ranges.map((range) => rangeHash(range, nodeAt).toString('base64')));
}

/** The tree size a checkpoint note names. */
export function noteTreeSize(note: string): number | undefined {
  const parsed = parseNote(note);
  return parsed && parseCheckpoint(parsed.text)?.size;
}

/** Each record's stored canonical bytes and its inclusion proof in the tree of `treeSize` records: two queries for a page. */
export async function inclusionProofsOf(db: Knex, seqs: number[], treeSize: number): Promise<AuditRecordProof[]> {
  const rows: { seq: string | number; leaf_bytes: Uint8Array }[] = await db('audit_leaves')
    .whereIn('seq', seqs)
    .select('seq', 'leaf_bytes');
  const leaves = new Map(
    rows.map((row) => [
      Number(row.seq),
      Buffer.from(row.leaf_bytes.buffer, row.leaf_bytes.byteOffset, row.leaf_bytes.byteLength).toString('utf8'),
    ]),
  );
  const paths = await proofs(
    db,
    seqs.map((seq) => inclusionProofRanges(seq - 1, treeSize)),
  );
  return seqs.map((seq, i) => {
    const leaf = leaves.get(seq);
    if (leaf === undefined) throw new Error(`audit record ${seq} has no stored leaf`);
    return { seq, leaf, inclusion_proof: paths[i] };
  });
}

/** The consistency proof from an earlier binder's (smaller) checkpoint to the tree of `treeSize` records. */
export async function consistencyWith(db: Knex, previousNote: string, treeSize: number): Promise<AuditConsistency | null> {
  const previousSize = noteTreeSize(previousNote);
  if (previousSize === undefined || previousSize >= treeSize) return null;
  const [proof] = await proofs(db, [consistencyProofRanges(previousSize, treeSize)]);
  return { note: previousNote, proof };
}
