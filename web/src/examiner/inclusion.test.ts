import { describe, expect, it } from 'vitest';
import { canonicalJson as serviceCanonicalJson } from '../../../packages/canonical-json/src/index';
import { hashLeaf, rootFromLeafHashes } from '../../../packages/merkle/src/tree';
import { canonicalJson, checkInclusion, toBase64 } from './inclusion';

/** Audit records as the service serves them (seq from 1). */
function records(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    seq: i + 1,
    action: 'evidence.run_created',
    source: 'evidence',
    entity_type: 'run',
    entity_id: `run-${i}`,
    actor: i % 2 ? 'zoë' : 'ann',
    event_id: null,
    occurred_at: '2026-11-22T10:00:00.000Z',
    recorded_at: '2026-11-22T10:00:01.000Z',
    data: { n: i, ratio: 1.5e-7, big: 1e21, text: 'é ✓ "quoted"\n\u0001', nested: { b: 1, a: [1.5, null, true], é: 2, Z: 3 } },
    prev_hash: '0'.repeat(64),
    hash: 'ignored',
  }));
}

const leafOf = (record: Record<string, unknown>) => {
  const { hash: _hash, ...content } = record;
  return hashLeaf(Buffer.from(serviceCanonicalJson(content), 'utf8'));
};

/** RFC 9162 §2.1.3.1 PATH(m, D[n]), straight from its recursive definition. */
function path(m: number, leaves: Buffer[]): Buffer[] {
  if (leaves.length <= 1) return [];
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return m < k
    ? [...path(m, leaves.slice(0, k)), rootFromLeafHashes(leaves.slice(k))]
    : [...path(m - k, leaves.slice(k)), rootFromLeafHashes(leaves.slice(0, k))];
}

function checkpointAndProof(all: ReturnType<typeof records>, index: number) {
  const leaves = all.map(leafOf);
  const note = `evidence.test/audit-log\n${all.length}\n${toBase64(rootFromLeafHashes(leaves))}\n\n— evidence.test/audit-log c2ln\n`;
  return { note, proof: { leaf_index: index, tree_size: all.length, proof: path(index, leaves).map((node) => node.toString('base64')) } };
}

describe('an audit record’s inclusion proof, checked in the browser', () => {
  it('canonicalises as the service does (RFC 8785)', () => {
    for (const record of records(3)) expect(canonicalJson(record)).toBe(serviceCanonicalJson(record));
  });

  it('accepts every record of trees of many sizes against their checkpoint', async () => {
    for (const size of [1, 2, 3, 5, 8, 13]) {
      const all = records(size);
      for (let index = 0; index < size; index += 1) {
        const { note, proof } = checkpointAndProof(all, index);
        expect(await checkInclusion(all[index], note, proof)).toEqual({ included: true });
      }
    }
  });

  it('refuses a tampered proof, a tampered record, another record’s proof and another tree size', async () => {
    const all = records(7);
    const { note, proof } = checkpointAndProof(all, 3);
    const flipped = Buffer.from(proof.proof[1], 'base64');
    flipped[0] ^= 1;
    const tamperedProof = { ...proof, proof: proof.proof.map((node, i) => (i === 1 ? flipped.toString('base64') : node)) };
    expect(await checkInclusion(all[3], note, tamperedProof)).toEqual({
      included: false,
      reason: 'the proof does not lead to the checkpoint’s root hash',
    });
    expect(await checkInclusion({ ...all[3], actor: 'mallory' }, note, proof)).toMatchObject({ included: false });
    expect(await checkInclusion(all[4], note, proof)).toEqual({ included: false, reason: 'the proof is for another record' });
    expect(await checkInclusion(all[3], note, { ...proof, proof: proof.proof.slice(1) })).toMatchObject({ included: false });
    expect(await checkInclusion(all[3], note, { ...proof, tree_size: 8 })).toEqual({
      included: false,
      reason: 'the proof is for another tree size than the checkpoint',
    });
  });
});
