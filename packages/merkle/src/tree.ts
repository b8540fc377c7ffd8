import { createHash, hash } from 'node:crypto';

/**
 * RFC 9162 (Certificate Transparency 2.0) Merkle trees over SHA-256, §2.1: the tree hash, inclusion
 * and consistency proofs (generation and verification). Node.js built-ins only, so it can be copied
 * into an offline verifier. Sizes and indexes are plain numbers (exact up to 2^53); no 32-bit bitwise
 * operators are used on them.
 */

export const HASH_SIZE = 32;

/** The hash of the empty tree: SHA-256 of nothing. */
export const EMPTY_ROOT: Buffer = createHash('sha256').digest();

/**
 * Node.js 20.12+ has the one-shot crypto.hash: no Hash object per call, about twice the records per second
 * of createHash/update/digest on ~1 KB inputs. The offline verifier promises Node.js 20, so older ones use
 * createHash. Same digest either way.
 */
const oneShot = typeof hash === 'function' ? hash : undefined;

function sha256(data: Uint8Array): Buffer {
  // On Node.js 20, crypto.hash's 'buffer' output is slower than createHash; a 'binary' (latin1) string maps byte for byte.
  return oneShot ? Buffer.from(oneShot('sha256', data, 'binary'), 'latin1') : createHash('sha256').update(data).digest();
}

function sha256Hex(data: Uint8Array): string {
  return oneShot ? oneShot('sha256', data, 'hex') : createHash('sha256').update(data).digest('hex');
}

/** Reused for the concatenated input of each hash: safe because hashing here is synchronous. */
let scratch = Buffer.allocUnsafe(4096);

/** head ‖ tail (a string head as UTF-8) in the scratch buffer, valid until the next call. */
function concatenated(head: Uint8Array | string, tail: Uint8Array): Buffer {
  // A UTF-16 code unit is at most 3 bytes of UTF-8: room enough without measuring the string first.
  const room = (typeof head === 'string' ? 3 * head.length : head.byteLength) + tail.byteLength;
  if (scratch.length < room) scratch = Buffer.allocUnsafe(Math.max(room, 2 * scratch.length));
  let at: number;
  if (typeof head === 'string') at = scratch.write(head, 0, 'utf8');
  else {
    scratch.set(head, 0);
    at = head.byteLength;
  }
  scratch.set(tail, at);
  return scratch.subarray(0, at + tail.byteLength);
}

/** SHA-256(head ‖ tail), a string head as UTF-8. */
export function sha256Of(head: Uint8Array | string, tail: Uint8Array): Buffer {
  return sha256(concatenated(head, tail));
}

/** SHA-256(head ‖ tail) as lowercase hex, a string head as UTF-8. */
export function sha256HexOf(head: Uint8Array | string, tail: Uint8Array): string {
  return sha256Hex(concatenated(head, tail));
}

/** SHA-256(0x00 ‖ leaf bytes). */
export function hashLeaf(bytes: Uint8Array): Buffer {
  return sha256Of(LEAF_PREFIX, bytes);
}

const node = Buffer.alloc(1 + 2 * HASH_SIZE, 0x01);

/** SHA-256(0x01 ‖ left ‖ right). */
export function hashChildren(left: Uint8Array, right: Uint8Array): Buffer {
  if (left.byteLength !== HASH_SIZE || right.byteLength !== HASH_SIZE) return sha256Of(NODE_PREFIX, Buffer.concat([left, right]));
  node.set(left, 1);
  node.set(right, 1 + HASH_SIZE);
  return sha256(node);
}

const LEAF_PREFIX = Buffer.from([0x00]);
const NODE_PREFIX = Buffer.from([0x01]);

/** The largest power of two strictly less than n (n ≥ 2): where RFC 9162 splits a tree of n leaves. */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH over leaf hashes, computed directly by the RFC's recursion: O(n), for tests and small trees. */
export function rootFromLeafHashes(leafHashes: readonly Uint8Array[]): Buffer {
  if (leafHashes.length === 0) return EMPTY_ROOT;
  if (leafHashes.length === 1) return Buffer.from(leafHashes[0]);
  const k = splitPoint(leafHashes.length);
  return hashChildren(rootFromLeafHashes(leafHashes.slice(0, k)), rootFromLeafHashes(leafHashes.slice(k)));
}

/**
 * A complete subtree of the tree: 2^level leaves starting at leaf index × 2^level. Level 0 nodes are
 * the leaf hashes. Once its leaves exist its hash never changes, so it can be stored once (a "tile").
 */
export interface NodeId {
  level: number;
  index: number;
}

/** The leaves [start, end) whose MTH a proof element is. */
export interface LeafRange {
  start: number;
  end: number;
}

/** Looks up the stored hash of a complete subtree. */
export type NodeLookup = (node: NodeId) => Uint8Array;

/**
 * The complete subtrees that make up the leaves [start, end), left to right, each as large as its
 * alignment allows. For the ranges that occur in RFC 9162 trees (start aligned to a power of two at
 * least end - start) their sizes strictly decrease, so the range's MTH is their right fold.
 */
export function completeSubtrees(range: LeafRange): NodeId[] {
  const nodes: NodeId[] = [];
  let start = range.start;
  while (start < range.end) {
    let size = 1;
    let level = 0;
    while (start % (size * 2) === 0 && start + size * 2 <= range.end) {
      size *= 2;
      level += 1;
    }
    nodes.push({ level, index: start / size });
    start += size;
  }
  return nodes;
}

/** MTH(D[start:end]) from stored complete-subtree hashes: at most log2(n) lookups. */
export function rangeHash(range: LeafRange, nodeAt: NodeLookup): Buffer {
  if (range.end <= range.start) return EMPTY_ROOT;
  const nodes = completeSubtrees(range);
  let hash: Buffer = Buffer.from(nodeAt(nodes[nodes.length - 1]));
  for (let i = nodes.length - 2; i >= 0; i -= 1) hash = hashChildren(nodeAt(nodes[i]), hash);
  return hash;
}

/** The root hash of the tree of the first `size` leaves. */
export function rootHash(size: number, nodeAt: NodeLookup): Buffer {
  return rangeHash({ start: 0, end: size }, nodeAt);
}

/**
 * The complete subtrees that appending leaf `index` (the tree had `index` leaves) completes, bottom up:
 * the leaf itself, then each parent whose right child was just completed. At most log2(n) + 1 nodes,
 * each needing one left sibling that is already stored.
 */
export function nodesCompletedByAppend(index: number, leafHash: Uint8Array, nodeAt: NodeLookup): (NodeId & { hash: Buffer })[] {
  const completed: (NodeId & { hash: Buffer })[] = [{ level: 0, index, hash: Buffer.from(leafHash) }];
  let { level, index: position, hash } = completed[0];
  while (position % 2 === 1) {
    hash = hashChildren(nodeAt({ level, index: position - 1 }), hash);
    level += 1;
    position = (position - 1) / 2;
    completed.push({ level, index: position, hash });
  }
  return completed;
}

/**
 * Appends a leaf to a frontier in place: the hashes of completeSubtrees({ start: 0, end: size }), the
 * O(log n) state from which the root of every later size follows (amortised one hash per leaf).
 */
export function frontierAppend(frontier: Buffer[], size: number, leafHash: Uint8Array): void {
  frontier.push(Buffer.from(leafHash));
  for (let rest = size; rest % 2 === 1; rest = (rest - 1) / 2) {
    const right = frontier.pop()!;
    const left = frontier.pop()!;
    frontier.push(hashChildren(left, right));
  }
}

/** The root of the tree whose frontier this is. */
export function frontierRoot(frontier: readonly Uint8Array[]): Buffer {
  if (frontier.length === 0) return EMPTY_ROOT;
  let hash: Buffer = Buffer.from(frontier[frontier.length - 1]);
  for (let i = frontier.length - 2; i >= 0; i -= 1) hash = hashChildren(frontier[i], hash);
  return hash;
}

/** The left siblings nodesCompletedByAppend(index, …) will look up, so they can be read in one query. */
export function appendSiblings(index: number): NodeId[] {
  const siblings: NodeId[] = [];
  for (let level = 0, position = index; position % 2 === 1; level += 1, position = (position - 1) / 2) {
    siblings.push({ level, index: position - 1 });
  }
  return siblings;
}

function assertSize(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative safe integer, not ${value}`);
}

/** RFC 9162 §2.1.3.1 PATH(m, D[n]) as leaf ranges, the leaf's sibling first. Requires 0 ≤ index < size. */
export function inclusionProofRanges(index: number, size: number): LeafRange[] {
  assertSize('index', index);
  assertSize('size', size);
  if (index >= size) throw new RangeError(`leaf index ${index} is not in a tree of size ${size}`);
  const ranges: LeafRange[] = [];
  let start = 0;
  let end = size;
  let m = index;
  while (end - start > 1) {
    const k = splitPoint(end - start);
    if (m < k) {
      ranges.push({ start: start + k, end });
      end = start + k;
    } else {
      ranges.push({ start, end: start + k });
      start += k;
      m -= k;
    }
  }
  return ranges.reverse();
}

/** RFC 9162 §2.1.4.1 PROOF(m, D[n]) as leaf ranges. Empty when from is 0 or from equals to. Requires from ≤ to. */
export function consistencyProofRanges(from: number, to: number): LeafRange[] {
  assertSize('from', from);
  assertSize('to', to);
  if (from > to) throw new RangeError(`tree size ${from} is larger than ${to}`);
  if (from === 0 || from === to) return [];
  const ranges: LeafRange[] = [];
  let start = 0;
  let end = to;
  let m = from;
  let wholeOldTree = true; // SUBPROOF's b: the old tree's root is known to the verifier, so it is left out
  while (m !== end - start) {
    const k = splitPoint(end - start);
    if (m <= k) {
      ranges.push({ start: start + k, end });
      end = start + k;
    } else {
      ranges.push({ start, end: start + k });
      start += k;
      m -= k;
      wholeOldTree = false;
    }
  }
  if (!wholeOldTree) ranges.push({ start, end });
  return ranges.reverse();
}

/** Every stored node the given proof ranges need, without duplicates (to read them in one query). */
export function nodesFor(ranges: readonly LeafRange[]): NodeId[] {
  const unique = new Map<string, NodeId>();
  for (const range of ranges) for (const node of completeSubtrees(range)) unique.set(`${node.level}/${node.index}`, node);
  return [...unique.values()];
}

/** The inclusion proof of leaf `index` in the tree of `size` leaves. */
export function inclusionProof(index: number, size: number, nodeAt: NodeLookup): Buffer[] {
  return inclusionProofRanges(index, size).map((range) => rangeHash(range, nodeAt));
}

/** The consistency proof between the trees of `from` and `to` leaves. */
export function consistencyProof(from: number, to: number, nodeAt: NodeLookup): Buffer[] {
  return consistencyProofRanges(from, to).map((range) => rangeHash(range, nodeAt));
}

const isHash = (value: Uint8Array): boolean => value.length === HASH_SIZE;

function sameHash(a: Uint8Array, b: Uint8Array): boolean {
  return isHash(a) && isHash(b) && Buffer.compare(a, b) === 0;
}

/**
 * RFC 9162 §2.1.3.2: the root that an inclusion proof leads to, or undefined when the proof cannot
 * belong to leaf `index` of a tree of `size` leaves (wrong length, index out of range, malformed hash).
 */
export function rootFromInclusionProof(
  index: number,
  size: number,
  leafHash: Uint8Array,
  proof: readonly Uint8Array[],
): Buffer | undefined {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return undefined;
  if (!isHash(leafHash) || !proof.every(isHash)) return undefined;
  let fn = index;
  let sn = size - 1;
  let r: Buffer = Buffer.from(leafHash);
  for (const p of proof) {
    if (sn === 0) return undefined;
    if (fn % 2 === 1 || fn === sn) {
      r = hashChildren(p, r);
      while (fn % 2 === 0 && fn !== 0) {
        fn /= 2;
        sn = Math.floor(sn / 2);
      }
    } else {
      r = hashChildren(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? r : undefined;
}

/** RFC 9162 §2.1.3.2: whether `proof` proves leaf `index` with hash `leafHash` in the tree with `root`. */
export function verifyInclusion(
  index: number,
  size: number,
  leafHash: Uint8Array,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  const computed = rootFromInclusionProof(index, size, leafHash, proof);
  return computed !== undefined && sameHash(computed, root);
}

/**
 * RFC 9162 §2.1.4.2: whether `proof` proves that the tree of `from` leaves with root `fromRoot` is a
 * prefix of the tree of `to` leaves with root `toRoot`. Equal sizes need equal roots and an empty proof;
 * every tree extends the empty one (from 0: empty proof).
 */
export function verifyConsistency(
  from: number,
  to: number,
  proof: readonly Uint8Array[],
  fromRoot: Uint8Array,
  toRoot: Uint8Array,
): boolean {
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 0 || from > to) return false;
  if (!isHash(fromRoot) || !isHash(toRoot) || !proof.every(isHash)) return false;
  if (from === to) return proof.length === 0 && sameHash(fromRoot, toRoot);
  if (from === 0) return proof.length === 0;
  if (proof.length === 0) return false;
  const path = isPowerOfTwo(from) ? [fromRoot, ...proof] : [...proof];
  let fn = from - 1;
  let sn = to - 1;
  while (fn % 2 === 1) {
    fn = (fn - 1) / 2;
    sn = Math.floor(sn / 2);
  }
  let fr: Buffer = Buffer.from(path[0]);
  let sr: Buffer = Buffer.from(path[0]);
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = hashChildren(c, fr);
      sr = hashChildren(c, sr);
      while (fn % 2 === 0 && fn !== 0) {
        fn /= 2;
        sn = Math.floor(sn / 2);
      }
    } else {
      sr = hashChildren(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && sameHash(fr, fromRoot) && sameHash(sr, toRoot);
}

function isPowerOfTwo(n: number): boolean {
  let k = 1;
  while (k < n) k *= 2;
  return k === n;
}
