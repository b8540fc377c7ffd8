/**
 * Checks in the browser that an audit record is in the log a signed checkpoint commits to: the record's
 * leaf hash is computed here (SHA-256 over 0x00 ‖ its RFC 8785 canonical JSON, without `hash`), folded with
 * the inclusion proof as RFC 9162 §2.1.3.2 says (nodes are SHA-256 over 0x01 ‖ left ‖ right), and compared
 * with the checkpoint's root hash. WebCrypto only: nothing here trusts the service's arithmetic.
 */

/** RFC 8785 (JCS): ECMAScript number and string serialisation, object keys sorted by UTF-16 code units. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('JCS has no representation of a non-finite number');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  throw new TypeError(`JCS has no representation of ${typeof value}`);
}

async function sha256(...parts: Uint8Array[]): Promise<Uint8Array> {
  const bytes = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
}

const LEAF = Uint8Array.of(0x00);
const NODE = Uint8Array.of(0x01);

export const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
export const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** SHA-256(0x00 ‖ JCS(record without hash)): the record's leaf in the log's Merkle tree. */
export async function recordLeafHash(record: Record<string, unknown>): Promise<Uint8Array> {
  const { hash: _hash, ...content } = record;
  return sha256(LEAF, new TextEncoder().encode(canonicalJson(content)));
}

/** RFC 9162 §2.1.3.2: the root the proof leads to from `leafHash` at `index` in a tree of `size` leaves, or null when it cannot. */
export async function rootFromInclusionProof(index: number, size: number, leafHash: Uint8Array, proof: readonly Uint8Array[]) {
  if (index < 0 || index >= size) return null;
  let fn = index;
  let sn = size - 1;
  let r = leafHash;
  for (const p of proof) {
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      r = await sha256(NODE, p, r);
      if (fn % 2 === 0) while (fn % 2 === 0 && fn !== 0) [fn, sn] = [fn / 2, Math.floor(sn / 2)];
    } else r = await sha256(NODE, r, p);
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? r : null;
}

/** A C2SP checkpoint note's body: origin, tree size, base64 root hash. */
export function checkpointHead(note: string): { origin: string; size: number; root: string } | null {
  const [origin, size, root] = note.split('\n');
  if (!origin || !/^\d+$/.test(size ?? '') || !root) return null;
  return { origin, size: Number(size), root };
}

export type InclusionVerdict = { included: true } | { included: false; reason: string };

/** Whether `record` (with its seq) is in the tree of the checkpoint `note`, by the proof for that tree size. */
export async function checkInclusion(
  record: Record<string, unknown> & { seq: number },
  note: string,
  proof: { leaf_index: number; tree_size: number; proof: readonly string[] },
): Promise<InclusionVerdict> {
  const head = checkpointHead(note);
  if (!head) return { included: false, reason: 'the checkpoint is not a checkpoint note' };
  if (proof.tree_size !== head.size) return { included: false, reason: 'the proof is for another tree size than the checkpoint' };
  if (proof.leaf_index !== record.seq - 1) return { included: false, reason: 'the proof is for another record' };
  const root = await rootFromInclusionProof(proof.leaf_index, proof.tree_size, await recordLeafHash(record), proof.proof.map(fromBase64));
  if (!root) return { included: false, reason: 'the proof has the wrong length for this tree' };
  return toBase64(root) === head.root
    ? { included: true }
    : { included: false, reason: 'the proof does not lead to the checkpoint’s root hash' };
}
