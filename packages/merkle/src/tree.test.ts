import { createHash } from 'node:crypto';
import {
  EMPTY_ROOT,
  appendSiblings,
  frontierAppend,
  frontierRoot,
  consistencyProof,
  hashChildren,
  hashLeaf,
  inclusionProof,
  nodesCompletedByAppend,
  nodesFor,
  consistencyProofRanges,
  inclusionProofRanges,
  rootFromInclusionProof,
  rootFromLeafHashes,
  rootHash,
  sha256HexOf,
  sha256Of,
  verifyConsistency,
  verifyInclusion,
  type NodeId,
} from './index';

// Reference vectors of RFC 6962 trees, as published by transparency-dev/merkle (testonly/constants.go,
// proof/verify_test.go) and certificate-transparency-go: data values only.
const hex = (value: string) => Buffer.from(value, 'hex');
const LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(hex);
const ROOTS = [
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
].map(hex);
const NODE_HASHES = [
  [
    '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
    '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
    '0298d122906dcfc10892cb53a73992fc5b9f493ea4c9badb27b791b4127a7fe7',
    '07506a85fd9dd2f120eb694f86011e5bb4662e5c415a62917033d4a9624487e7',
    'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    '4271a26be0d8a84f0bd54c8c302e7cb3a3b5d1fa6780a40bcce2873477dab658',
    'b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f',
    '46f6ffadd3d06a09ff3c5860d2755c8b9819db7df44251788c7d8e3180de8eb1',
  ],
  [
    'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
    '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
    '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
    'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
  ],
  ['d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7', '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4'],
  ['5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328'],
].map((level) => level.map(hex));
// Leaf numbers in the published vectors count from 1.
const INCLUSION_VECTORS: { leaf: number; size: number; proof: string[] }[] = [
  { leaf: 1, size: 1, proof: [] },
  {
    leaf: 1,
    size: 8,
    proof: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    leaf: 6,
    size: 8,
    proof: [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  { leaf: 3, size: 3, proof: ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125'] },
  {
    leaf: 2,
    size: 5,
    proof: [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
];
const CONSISTENCY_VECTORS: { from: number; to: number; proof: string[] }[] = [
  { from: 1, to: 1, proof: [] },
  {
    from: 1,
    to: 8,
    proof: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    from: 6,
    to: 8,
    proof: [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  {
    from: 2,
    to: 5,
    proof: [
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
  {
    from: 6,
    to: 7,
    proof: [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
];

/** An in-memory tile store built the way the service builds it: one append at a time. */
function buildTree(leafHashes: readonly Buffer[]) {
  const nodes = new Map<string, Buffer>();
  const key = (node: NodeId) => `${node.level}/${node.index}`;
  const nodeAt = (node: NodeId) => {
    const hash = nodes.get(key(node));
    if (!hash) throw new Error(`node ${key(node)} is not stored`);
    return hash;
  };
  leafHashes.forEach((leafHash, index) => {
    for (const sibling of appendSiblings(index)) nodeAt(sibling); // every sibling the append needs is already there
    for (const node of nodesCompletedByAppend(index, leafHash, nodeAt)) nodes.set(key(node), node.hash);
  });
  return { nodes, nodeAt };
}

// Naive recomputation straight from the RFC's recursive definitions, over the leaf hashes.
function naivePath(m: number, leaves: Buffer[]): Buffer[] {
  if (leaves.length <= 1) return [];
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return m < k
    ? [...naivePath(m, leaves.slice(0, k)), rootFromLeafHashes(leaves.slice(k))]
    : [...naivePath(m - k, leaves.slice(k)), rootFromLeafHashes(leaves.slice(0, k))];
}
function naiveSubproof(m: number, leaves: Buffer[], wholeOldTree: boolean): Buffer[] {
  if (m === leaves.length) return wholeOldTree ? [] : [rootFromLeafHashes(leaves)];
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return m <= k
    ? [...naiveSubproof(m, leaves.slice(0, k), wholeOldTree), rootFromLeafHashes(leaves.slice(k))]
    : [...naiveSubproof(m - k, leaves.slice(k), false), rootFromLeafHashes(leaves.slice(0, k))];
}

const flipBit = (hash: Buffer) => {
  const copy = Buffer.from(hash);
  copy[0] ^= 8;
  return copy;
};
const SOME_HASH = hex('abacaba000000000000000000000000000000000000000000060061e00123456');

describe('RFC 9162 Merkle tree hashing', () => {
  const leafHashes = LEAVES.map((leaf) => hashLeaf(leaf));

  it('hashes leaves with a 0x00 prefix and nodes with 0x01, as SHA-256', () => {
    expect(hashLeaf(Buffer.alloc(0))).toEqual(
      createHash('sha256')
        .update(Buffer.from([0]))
        .digest(),
    );
    expect(hashChildren(leafHashes[0], leafHashes[1])).toEqual(
      createHash('sha256')
        .update(Buffer.from([1]))
        .update(leafHashes[0])
        .update(leafHashes[1])
        .digest(),
    );
    expect(EMPTY_ROOT).toEqual(ROOTS[0]);
  });

  it.each(ROOTS.map((root, size) => [size, root]))('gives the published root of the tree of size %i', (size, root) => {
    expect(rootFromLeafHashes(leafHashes.slice(0, size as number))).toEqual(root);
    expect(rootHash(size as number, buildTree(leafHashes.slice(0, size as number)).nodeAt)).toEqual(root);
  });

  it('stores exactly the published complete-subtree hashes of the 8-leaf tree', () => {
    const { nodes } = buildTree(leafHashes);
    const expected = new Map(NODE_HASHES.flatMap((level, l) => level.map((hash, i) => [`${l}/${i}`, hash] as const)));
    expect(nodes).toEqual(expected);
  });

  it.each(INCLUSION_VECTORS)(
    'generates and verifies the published inclusion proof of leaf $leaf in a tree of size $size',
    ({ leaf, size, proof }) => {
      const { nodeAt } = buildTree(leafHashes.slice(0, size));
      const expected = proof.map(hex);
      expect(inclusionProof(leaf - 1, size, nodeAt)).toEqual(expected);
      expect(verifyInclusion(leaf - 1, size, leafHashes[leaf - 1], expected, ROOTS[size])).toBe(true);
    },
  );

  it.each(CONSISTENCY_VECTORS)('generates and verifies the published consistency proof from $from to $to', ({ from, to, proof }) => {
    const { nodeAt } = buildTree(leafHashes.slice(0, to));
    const expected = proof.map(hex);
    expect(consistencyProof(from, to, nodeAt)).toEqual(expected);
    expect(verifyConsistency(from, to, expected, ROOTS[from], ROOTS[to])).toBe(true);
  });

  it('refuses corrupted inclusion proofs of the published vectors', () => {
    for (const { leaf, size, proof: hexProof } of INCLUSION_VECTORS.filter((v) => v.proof.length > 0)) {
      const [index, proof, root, leafHash] = [leaf - 1, hexProof.map(hex), ROOTS[size], leafHashes[leaf - 1]];
      const probes: [number, number, Buffer, Buffer[], Buffer][] = [
        [index - 1, size, leafHash, proof, root],
        [index + 1, size, leafHash, proof, root],
        [index ^ 2, size, leafHash, proof, root],
        [index, size * 2, leafHash, proof, root],
        [index, Math.floor(size / 2), leafHash, proof, root],
        [index, size, Buffer.from('WrongLeaf'), proof, root],
        [index, size, leafHash, proof, EMPTY_ROOT],
        [index, size, leafHash, proof, SOME_HASH],
        [index, size, leafHash, [...proof, Buffer.alloc(0)], root],
        [index, size, leafHash, [...proof, root], root],
        [index, size, leafHash, [Buffer.alloc(0), ...proof], root],
        [index, size, leafHash, [root, ...proof], root],
        [index, size, leafHash, proof.slice(0, -1), root],
        ...proof.map((_, i): [number, number, Buffer, Buffer[], Buffer] => [
          index,
          size,
          leafHash,
          proof.map((p, j) => (i === j ? flipBit(p) : p)),
          root,
        ]),
      ];
      for (const probe of probes) expect(verifyInclusion(...probe)).toBe(false);
    }
  });

  it('handles the degenerate inclusion and consistency cases like the reference implementation', () => {
    for (const [index, size] of [
      [0, 0],
      [1, 0],
      [2, 1],
    ])
      expect(verifyInclusion(index, size, SOME_HASH, [], EMPTY_ROOT)).toBe(false);
    expect(verifyInclusion(0, 1, leafHashes[0], [], leafHashes[0])).toBe(true);
    expect(verifyInclusion(0, 1, leafHashes[0], [], Buffer.alloc(0))).toBe(false);
    expect(verifyConsistency(0, 0, [], SOME_HASH, SOME_HASH)).toBe(true);
    expect(verifyConsistency(0, 1, [], SOME_HASH, EMPTY_ROOT)).toBe(true);
    expect(verifyConsistency(1, 1, [], SOME_HASH, EMPTY_ROOT)).toBe(false);
    expect(verifyConsistency(1, 0, [], SOME_HASH, SOME_HASH)).toBe(false);
    expect(verifyConsistency(2, 1, [], SOME_HASH, SOME_HASH)).toBe(false);
    expect(verifyConsistency(1, 2, [], SOME_HASH, EMPTY_ROOT)).toBe(false);
    for (const [from, to] of [
      [0, 0],
      [0, 1],
      [1, 1],
    ])
      expect(verifyConsistency(from, to, [EMPTY_ROOT], EMPTY_ROOT, EMPTY_ROOT)).toBe(false);
    expect(() => inclusionProofRanges(3, 3)).toThrow(RangeError);
    expect(() => consistencyProofRanges(4, 3)).toThrow(RangeError);
  });

  it('refuses corrupted consistency proofs of the published vectors', () => {
    for (const { from, to, proof: hexProof } of CONSISTENCY_VECTORS.filter((v) => v.proof.length > 0)) {
      const [proof, root1, root2] = [hexProof.map(hex), ROOTS[from], ROOTS[to]];
      const probes: [number, number, Buffer[], Buffer, Buffer][] = [
        [from - 1, to, proof, root1, root2],
        [from + 1, to, proof, root1, root2],
        [from ^ 2, to, proof, root1, root2],
        [from, to * 2, proof, root1, root2],
        [from, Math.floor(to / 2), proof, root1, root2],
        [from, to, proof, Buffer.from('WrongRoot'), root2],
        [from, to, proof, root1, Buffer.from('WrongRoot')],
        [from, to, proof, root2, root1],
        [from, to, [], root1, root2],
        [from, to, [...proof, Buffer.alloc(0)], root1, root2],
        [from, to, [...proof, root1], root1, root2],
        [from, to, [...proof, root2], root1, root2],
        [from, to, [Buffer.alloc(0), ...proof], root1, root2],
        [from, to, [root1, ...proof], root1, root2],
        [from, to, [root2, ...proof], root1, root2],
        [from, to, [proof[0], ...proof], root1, root2],
        [from, to, proof.slice(0, -1), root1, root2],
        ...proof.map((_, i): [number, number, Buffer[], Buffer, Buffer] => [
          from,
          to,
          proof.map((p, j) => (i === j ? flipBit(p) : p)),
          root1,
          root2,
        ]),
      ];
      for (const probe of probes) expect(verifyConsistency(...probe)).toBe(false);
    }
  });

  it('proves every leaf of every tree of size 1..64 and every pair of sizes, as the naive recursion does', () => {
    const leaves = Array.from({ length: 64 }, (_, i) => hashLeaf(Buffer.from(`leaf ${i}`)));
    const { nodeAt } = buildTree(leaves);
    const roots = Array.from({ length: 65 }, (_, size) => rootFromLeafHashes(leaves.slice(0, size)));
    const frontier: Buffer[] = [];
    for (let size = 1; size <= 64; size += 1) {
      frontierAppend(frontier, size - 1, leaves[size - 1]);
      expect(frontierRoot(frontier)).toEqual(roots[size]);
      expect(rootHash(size, nodeAt)).toEqual(roots[size]);
      for (let index = 0; index < size; index += 1) {
        const proof = inclusionProof(index, size, nodeAt);
        expect(proof).toEqual(naivePath(index, leaves.slice(0, size)));
        expect(rootFromInclusionProof(index, size, leaves[index], proof)).toEqual(roots[size]);
        expect(verifyInclusion(index, size, leaves[index], proof, roots[size])).toBe(true);
        expect(verifyInclusion(index, size, leaves[(index + 1) % 64], proof, roots[size])).toBe(false);
      }
      for (let from = 1; from <= size; from += 1) {
        const proof = consistencyProof(from, size, nodeAt);
        expect(proof).toEqual(naiveSubproof(from, leaves.slice(0, size), true));
        expect(verifyConsistency(from, size, proof, roots[from], roots[size])).toBe(true);
        if (from < size) expect(verifyConsistency(from, size, proof, roots[from - 1], roots[size])).toBe(false);
      }
    }
  });

  it('needs O(log n) stored nodes for a proof in a large tree', () => {
    const size = 1_000_003;
    expect(nodesFor(inclusionProofRanges(500_000, size)).length).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(size)));
    expect(nodesFor(consistencyProofRanges(333_333, size)).length).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(size)));
    expect(appendSiblings(2 ** 20 - 1)).toHaveLength(20);
  });
});

describe('one-shot hashing (crypto.hash into a reused buffer)', () => {
  const reference = (...parts: (Uint8Array | string)[]) => {
    const hash = createHash('sha256');
    for (const part of parts) hash.update(part);
    return hash.digest();
  };
  const inputs: [string, Uint8Array | string, Uint8Array][] = [
    ['an ASCII head', '0'.repeat(64), Buffer.from('{"seq":1}')],
    ['a head outside ASCII', 'é€😀', Buffer.from([0, 1, 2])],
    ['an empty tail', 'x', Buffer.alloc(0)],
    ['a tail past the first buffer (it grows)', Buffer.from([0x00]), Buffer.alloc(100_000, 7)],
    ['bytes after the large one (a shorter input in the grown buffer)', Buffer.from([0x01]), Buffer.from('short')],
  ];

  it.each(inputs)('hashes %s exactly as createHash over the concatenation', (_what, head, tail) => {
    expect(sha256Of(head, tail).equals(reference(head, tail))).toBe(true);
    expect(sha256HexOf(head, tail)).toBe(reference(head, tail).toString('hex'));
  });

  it('hands out digests that the next hash does not overwrite', () => {
    const first = sha256Of('a', Buffer.from('b'));
    const copy = Buffer.from(first);
    sha256Of('c', Buffer.alloc(5000, 1));
    expect(first.equals(copy)).toBe(true);
  });

  it('hashes leaves and nodes as RFC 9162 says, also for nodes that are not 32 bytes each', () => {
    const left = reference('l');
    const right = reference('r');
    expect(hashLeaf(Buffer.from('leaf')).equals(reference(Buffer.from([0]), 'leaf'))).toBe(true);
    expect(hashChildren(left, right).equals(reference(Buffer.from([1]), left, right))).toBe(true);
    expect(hashChildren(Buffer.from('ab'), Buffer.from('c')).equals(reference(Buffer.from([1]), 'abc'))).toBe(true);
  });

  it('gives the same digests on a Node.js without crypto.hash (the offline verifier promises Node.js 20)', () => {
    jest.isolateModules(() => {
      jest.doMock('node:crypto', () => ({ ...jest.requireActual('node:crypto'), hash: undefined }));
      expect((require('node:crypto') as typeof import('node:crypto')).hash).toBeUndefined();
      const fallback = require('./tree') as typeof import('./tree');
      for (const [, head, tail] of inputs) {
        expect(fallback.sha256Of(head, tail).equals(reference(head, tail))).toBe(true);
        expect(fallback.sha256HexOf(head, tail)).toBe(reference(head, tail).toString('hex'));
      }
      expect(fallback.hashLeaf(Buffer.from('leaf')).equals(hashLeaf(Buffer.from('leaf')))).toBe(true);
    });
    jest.dontMock('node:crypto');
  });
});
