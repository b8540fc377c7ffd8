import { randomUUID } from 'node:crypto';
import { completeSubtrees, hashLeaf, nodesCompletedByAppend, type NodeId } from '../../packages/merkle/src';
import { GENESIS_HASH, canonicalRecord, chainHash, type AuditRecord } from '../../services/evidence/src/shared/audit-chain';
import { AUDIT_CHAIN_LOCK } from '../../services/evidence/src/shared/audit-append';
import { canonicalRecordBytes } from './audit-bytes';
import { pgClient } from './workspace-modules';

/** The hashed bytes of up to this many seeded records are kept for the raw SHA-256 baseline. */
export const SAMPLE_LIMIT = 200000;

/** What a consumed `claim.created` event becomes (the claims service's event data, no personal data). */
function claimCreatedRecord(seq: number, prevHash: string, at: string): Omit<AuditRecord, 'hash'> {
  const claimId = randomUUID();
  return {
    seq,
    action: 'claim.created',
    source: 'claims',
    entity_type: 'claim',
    entity_id: claimId,
    actor: 'claimant',
    event_id: randomUUID(),
    occurred_at: at,
    recorded_at: at,
    data: {
      claim_id: claimId,
      claim_number: `CLM-2019-${String(seq).padStart(7, '0')}`,
      actor: 'claimant',
      stage: 'intake',
      loss_type: 'auto_collision',
      loss_date: '2026-11-20',
      injuries: false,
      police_report: true,
      estimated_amount: { amount: '2500.00', currency: 'USD' },
      preferred_channel: 'email',
      language: 'en',
      required_documents: ['photos_of_damage', 'repair_estimate', 'police_report'],
      acknowledgement_update_id: randomUUID(),
      received_at: at,
    },
    prev_hash: prevHash,
  };
}

const COLUMNS: [keyof AuditRecord, string][] = [
  ['seq', 'bigint'],
  ['action', 'text'],
  ['source', 'text'],
  ['entity_type', 'text'],
  ['entity_id', 'text'],
  ['actor', 'text'],
  ['event_id', 'text'],
  ['occurred_at', 'text'],
  ['recorded_at', 'text'],
  ['data', 'jsonb'],
  ['prev_hash', 'text'],
  ['hash', 'text'],
];

/** The stored complete subtrees of the tree of `size` records that the next appends build on. */
async function frontierNodes(client: ReturnType<typeof pgClient>, size: number): Promise<Map<string, Buffer>> {
  const wanted: NodeId[] = completeSubtrees({ start: 0, end: size });
  const nodes = new Map<string, Buffer>();
  if (wanted.length === 0) return nodes;
  const { rows } = await client.query(
    'SELECT level, idx, hash FROM audit_tree_nodes WHERE (level, idx) IN (SELECT * FROM unnest($1::smallint[], $2::bigint[]))',
    [wanted.map((node) => node.level), wanted.map((node) => node.index)],
  );
  for (const row of rows) nodes.set(`${row.level}/${row.idx}`, row.hash);
  return nodes;
}

/**
 * Extends the audit log of a running evidence service to `target` records: a valid hash chain and its
 * Merkle tree (stored canonical bytes and complete subtrees) computed here with the service's own
 * `canonicalRecord`, `chainHash` and @platform/merkle, inserted in batches (multi-row INSERT … SELECT FROM unnest)
 * under the service's chain lock, so appends of the service itself interleave without forking the chain.
 * Keeps the hashed bytes of up to SAMPLE_LIMIT records in `sample`.
 */
export async function seedAuditLog(databaseUrl: string, target: number, sample: Buffer[], log: (line: string) => void): Promise<number> {
  const client = pgClient(databaseUrl);
  await client.connect();
  try {
    let count = Number((await client.query('SELECT count(*) AS n FROM audit_log')).rows[0].n);
    const batch = 10000;
    while (count < target) {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [AUDIT_CHAIN_LOCK]);
      const head = (await client.query('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1')).rows[0];
      let seq = head ? Number(head.seq) : 0;
      let prev: string = head ? head.hash : GENESIS_HASH;
      const treeSize = Number((await client.query('SELECT coalesce(max(seq), 0) AS n FROM audit_leaves')).rows[0].n);
      if (treeSize !== seq) throw new Error(`the audit tree holds ${treeSize} of ${seq} records: let the service catch it up first`);
      const nodes = await frontierNodes(client, seq);
      const nodeAt = (node: NodeId) => nodes.get(`${node.level}/${node.index}`)!;
      const leaves: [number[], Buffer[]] = [[], []];
      const treeNodes: [number[], number[], Buffer[]] = [[], [], []];
      const size = Math.min(batch, target - seq);
      const columns: unknown[][] = COLUMNS.map(() => []);
      const at = new Date().toISOString();
      for (let i = 0; i < size; i++) {
        const unsigned = claimCreatedRecord(++seq, prev, at);
        const leafBytes = Buffer.from(canonicalRecord(unsigned), 'utf8');
        const record: AuditRecord = { ...unsigned, hash: chainHash(prev, leafBytes) };
        if (sample.length < SAMPLE_LIMIT) sample.push(canonicalRecordBytes(unsigned));
        leaves[0].push(seq);
        leaves[1].push(leafBytes);
        for (const node of nodesCompletedByAppend(seq - 1, hashLeaf(leafBytes), nodeAt)) {
          nodes.set(`${node.level}/${node.index}`, node.hash);
          treeNodes[0].push(node.level);
          treeNodes[1].push(node.index);
          treeNodes[2].push(node.hash);
        }
        COLUMNS.forEach(([name], index) => columns[index].push(name === 'data' ? JSON.stringify(record.data) : record[name]));
        prev = record.hash;
      }
      const list = COLUMNS.map(([name]) => name).join(', ');
      const unnest = COLUMNS.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ');
      await client.query(`INSERT INTO audit_log (${list}) SELECT * FROM unnest(${unnest})`, columns);
      await client.query('INSERT INTO audit_leaves (seq, leaf_bytes) SELECT * FROM unnest($1::bigint[], $2::bytea[])', leaves);
      await client.query(
        'INSERT INTO audit_tree_nodes (level, idx, hash) SELECT * FROM unnest($1::smallint[], $2::bigint[], $3::bytea[])',
        treeNodes,
      );
      await client.query('COMMIT');
      count = seq;
      if (count % 100000 < batch || count >= target) log(`  audit log: ${count} records`);
    }
    await client.query('ANALYZE audit_log');
    await client.query('ANALYZE audit_leaves');
    await client.query('ANALYZE audit_tree_nodes');
    return count;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
