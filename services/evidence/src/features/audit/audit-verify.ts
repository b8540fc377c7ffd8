import { keysetPages, type Knex } from '@platform/db';
import { completeSubtrees, frontierAppend, frontierRoot, hashLeaf } from '@platform/merkle';
import { GENESIS_HASH, canonicalRecord, chainHash, chainTimestamp } from '../../shared/audit-chain';
import { auditTreeRoot, auditTreeSize, readTreeNodes } from '../../shared/audit-tree';
import type { AuditCheckpoint, BreakReason, VerificationReport } from './audit-schemas';
import { auditStore, type TreeRecord } from './audit-store';
import { firstWitnessRefusal } from './audit-witnesses';
import type { CheckpointSigner } from './checkpoint-signer';

export interface VerifyOptions {
  fromSeq?: number;
  toSeq?: number;
  /** Records (and checkpoints) read per query; memory is bounded by it, not by the log. */
  pageSize: number;
}

/** Items in seq order, a page at a time (keyset: seq > the last one seen; the next page read ahead). */
async function* keysetWalk<T extends { seq: number }>(
  fetchAfter: (afterSeq: number) => Promise<T[]>,
  startAfter: number,
  pageSize: number,
): AsyncGenerator<T> {
  for await (const page of keysetPages(fetchAfter, (item) => item.seq, startAfter, pageSize)) yield* page;
}

/**
 * Recomputes the chain over [fromSeq, toSeq]: every record's hash, every link, gaplessness, and every
 * checkpoint in range (signature by the trusted key, hash equal to the record at its seq, and no
 * checkpoint beyond the last record). Stops at the first break.
 */
export async function verifyAuditChain(db: Knex, signer: CheckpointSigner, options: VerifyOptions): Promise<VerificationReport> {
  // One snapshot for every page: records and checkpoints appended meanwhile are not half seen (a
  // checkpoint of a record committed after the walk passed the head would look like truncation).
  if (!db.isTransaction)
    return db.transaction((trx) => verifySnapshot(trx, signer, options), { isolationLevel: 'repeatable read', readOnly: true });
  return verifySnapshot(db, signer, options);
}

/**
 * The leaf bytes a record is verified by, and the chain hash they give. Normally the stored bytes alone:
 * a row written in the same transaction as its leaf (and neither rewritten since) is the row the append
 * derived those bytes from. Any other row is canonicalised and compared with its bytes: when it no longer
 * says what they say, the chain hash is its own (the chain then shows whether it was edited or rewritten
 * and rehashed); a record from before the tree (not yet caught up) has no stored bytes. Undefined when the
 * record is gone meanwhile.
 */
async function leafOfRecord(
  store: ReturnType<typeof auditStore>,
  record: TreeRecord,
): Promise<{ bytes: Buffer; chainHash: string; matchesRow: boolean } | undefined> {
  const row = await store.recordAt(record.seq);
  if (!row) return undefined;
  const rowBytes = Buffer.from(canonicalRecord(row), 'utf8');
  return {
    bytes: record.leaf_bytes ?? rowBytes,
    chainHash: chainHash(row.prev_hash, rowBytes),
    matchesRow: record.leaf_bytes === null || record.leaf_bytes.equals(rowBytes),
  };
}

async function verifySnapshot(db: Knex, signer: CheckpointSigner, options: VerifyOptions): Promise<VerificationReport> {
  const started = Date.now();
  const fromSeq = options.fromSeq ?? 1;
  const { toSeq, pageSize } = options;
  const report: VerificationReport = {
    valid: true,
    records_checked: 0,
    first_seq: null,
    last_seq: null,
    head_hash: null,
    checkpoint: null,
    first_invalid: null,
    verified_at: '',
    duration_ms: 0,
  };
  const fail = (seq: number, reason: BreakReason) => {
    report.valid = false;
    report.first_invalid = { seq, reason };
  };
  const store = auditStore(db);
  const checkpoints = keysetWalk(
    (after) => store.listCheckpoints({ after_seq: after, to_seq: toSeq, limit: pageSize }),
    fromSeq - 1,
    pageSize,
  );
  let nextCheckpoint = (await checkpoints.next()).value as AuditCheckpoint | undefined;
  const checkCheckpoint = async (checkpoint: AuditCheckpoint, recordHashAtSeq: string): Promise<boolean> => {
    const signatureValid = signer.verify(checkpoint.seq, checkpoint.hash, checkpoint.signature);
    const treeHead = checkpoint.note === null ? undefined : signer.openTreeHead(checkpoint.note);
    report.checkpoint = { seq: checkpoint.seq, hash: checkpoint.hash, signed_at: checkpoint.signed_at, signature_valid: signatureValid };
    if (!signatureValid || (checkpoint.note !== null && !treeHead)) fail(checkpoint.seq, 'bad_signature');
    else if (checkpoint.hash !== recordHashAtSeq) fail(checkpoint.seq, 'checkpoint_mismatch');
    else if (treeHead && (treeHead.size !== checkpoint.seq || !frontier || !treeHead.rootHash.equals(frontierRoot(frontier))))
      fail(checkpoint.seq, 'checkpoint_mismatch');
    // The stored subtrees that proofs are built from must agree with the leaves too.
    else if (treeHead && !(await auditTreeRoot(db, checkpoint.seq)).equals(treeHead.rootHash)) fail(checkpoint.seq, 'tree_mismatch');
    return report.valid;
  };

  // The link into the range: genesis, or the hash of the record just before it (when it exists).
  let expectedPrev: string | undefined = fromSeq === 1 ? GENESIS_HASH : (await store.recordAt(fromSeq - 1))?.hash;
  let expectedSeq: number | undefined = fromSeq === 1 ? 1 : expectedPrev !== undefined ? fromSeq : undefined;
  // The tree over the records walked so far, from the stored subtrees of the ones before the range.
  // (Unknown when the range starts among records from before the tree: no tree head covers those.)
  const treeSize = await auditTreeSize(db);
  const prefix = fromSeq - 1 <= treeSize ? completeSubtrees({ start: 0, end: fromSeq - 1 }) : undefined;
  const prefixNodes = await readTreeNodes(db, prefix ?? []);
  const frontier = prefix?.map((node) => Buffer.from(prefixNodes(node)));
  // A record rewritten and consistently rehashed no longer matches its stored leaf: the signed
  // checkpoint after it names the break (as before the tree); without one, the leaf does.
  let rewrittenAt: number | undefined;
  // Walked a page at a time (not a generator step per record: the per-record work is two SHA-256).
  const pages = keysetPages(
    (after) => store.treeRecordsPage(after + 1, toSeq, pageSize),
    (record) => record.seq,
    fromSeq - 1,
    pageSize,
  );
  walk: for await (const page of pages)
    for (const record of page) {
      if (expectedSeq !== undefined && record.seq !== expectedSeq) {
        fail(expectedSeq, 'gap');
        break walk;
      }
      const leaf =
        record.leaf_bytes && record.written_with_leaf
          ? { bytes: record.leaf_bytes, chainHash: chainHash(record.prev_hash, record.leaf_bytes), matchesRow: true }
          : await leafOfRecord(store, record);
      const leafHash = leaf && hashLeaf(leaf.bytes);
      if (!leafHash || (record.seq <= treeSize && (!record.leaf_bytes || !record.leaf_hash || !record.leaf_hash.equals(leafHash)))) {
        fail(record.seq, 'tree_mismatch');
        break walk;
      }
      if (leaf.chainHash !== record.hash) {
        fail(record.seq, 'edited_record');
        break walk;
      }
      if (expectedPrev !== undefined && record.prev_hash !== expectedPrev) {
        fail(record.seq, 'broken_link');
        break walk;
      }
      if (!leaf.matchesRow) rewrittenAt ??= record.seq;
      if (frontier) frontierAppend(frontier, record.seq - 1, leafHash);
      report.records_checked += 1;
      report.first_seq ??= record.seq;
      report.last_seq = record.seq;
      report.head_hash = record.hash;
      while (nextCheckpoint && nextCheckpoint.seq < record.seq)
        nextCheckpoint = (await checkpoints.next()).value as AuditCheckpoint | undefined;
      if (nextCheckpoint && nextCheckpoint.seq === record.seq) {
        if (!(await checkCheckpoint(nextCheckpoint, record.hash))) break walk;
        nextCheckpoint = (await checkpoints.next()).value as AuditCheckpoint | undefined;
      }
      expectedSeq = record.seq + 1;
      expectedPrev = record.hash;
    }
  if (report.valid && rewrittenAt !== undefined) fail(rewrittenAt, 'tree_mismatch');
  if (report.valid) {
    // A signed checkpoint beyond the last record means records it anchored are gone.
    const lastSeen = report.last_seq ?? fromSeq - 1;
    while (nextCheckpoint && nextCheckpoint.seq <= lastSeen)
      nextCheckpoint = (await checkpoints.next()).value as AuditCheckpoint | undefined;
    if (nextCheckpoint) {
      report.checkpoint = {
        seq: nextCheckpoint.seq,
        hash: nextCheckpoint.hash,
        signed_at: nextCheckpoint.signed_at,
        signature_valid: signer.verify(nextCheckpoint.seq, nextCheckpoint.hash, nextCheckpoint.signature),
      };
      fail(lastSeen + 1, 'truncated');
    }
  }
  await checkpoints.return(undefined);
  // A witness that refused a checkpoint saw history the chain no longer shows (rewritten and re-signed, cut, or forked).
  const refusal = report.valid ? await firstWitnessRefusal(db) : undefined;
  if (refusal) fail(refusal.offered_size, 'witness_refused');
  report.verified_at = chainTimestamp(new Date());
  report.duration_ms = Date.now() - started;
  return report;
}
