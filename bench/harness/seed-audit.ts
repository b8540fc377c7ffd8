import { randomUUID } from 'node:crypto';
import { GENESIS_HASH, recordHash, type AuditRecord } from '../../services/evidence/src/shared/audit-chain';
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

/**
 * Extends the audit log of a running evidence service to `target` records: a valid hash chain computed
 * here with the service's own `recordHash`, inserted in batches (multi-row INSERT … SELECT FROM unnest)
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
      const size = Math.min(batch, target - seq);
      const columns: unknown[][] = COLUMNS.map(() => []);
      const at = new Date().toISOString();
      for (let i = 0; i < size; i++) {
        const unsigned = claimCreatedRecord(++seq, prev, at);
        const record: AuditRecord = { ...unsigned, hash: recordHash(unsigned) };
        if (sample.length < SAMPLE_LIMIT) sample.push(canonicalRecordBytes(unsigned));
        COLUMNS.forEach(([name], index) => columns[index].push(name === 'data' ? JSON.stringify(record.data) : record[name]));
        prev = record.hash;
      }
      const list = COLUMNS.map(([name]) => name).join(', ');
      const unnest = COLUMNS.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ');
      await client.query(`INSERT INTO audit_log (${list}) SELECT * FROM unnest(${unnest})`, columns);
      await client.query('COMMIT');
      count = seq;
      if (count % 100000 < batch || count >= target) log(`  audit log: ${count} records`);
    }
    await client.query('ANALYZE audit_log');
    return count;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
