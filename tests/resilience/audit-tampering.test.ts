import { recordHash, type AuditRecord } from '../../services/evidence/src/shared/audit-chain';
import { bearer } from '@platform/testing';
import { withDatabase, queryRows } from './support/database';
import { claimBody } from './support/payloads';
import { writeReliability } from './support/report';
import { writeFigures } from './support/results';
import { sleep, startScenarioStack, until, type ScenarioStack } from './support/stack';

const CLAIMS = 14;
const CHECKPOINT_EVERY = 5;

interface Verification {
  valid: boolean;
  records_checked: number;
  first_invalid: { seq: number; reason: string } | null;
}

describe('audit log tampering, end to end', () => {
  let stack: ScenarioStack | undefined;
  let reader: string;

  beforeAll(async () => {
    stack = await startScenarioStack('audit-tampering', {
      AUDIT_CHECKPOINT_EVERY: String(CHECKPOINT_EVERY),
      AUDIT_CHECKPOINT_INTERVAL_MS: '3600000',
      AUDIT_CHECKPOINT_DELAY_MS: '3600000',
    });
    reader = await bearer('audit:read', 'resilience-examiner');
  });

  afterAll(async () => {
    await stack?.cleanup();
    writeReliability();
  });

  async function verify(): Promise<{ status: number; body: Verification }> {
    const response = await fetch(`${stack!.gateway.url}/api/evidence/audit/verify`, { headers: { authorization: reader } });
    return { status: response.status, body: (await response.json()) as Verification };
  }

  /** Runs `sql` as superuser with the append-only triggers off, as an attacker with database access would. */
  async function tamper(statements: (db: import('@platform/db').Knex) => Promise<void>): Promise<void> {
    await withDatabase(stack!.evidenceDatabaseUrl, async (db) => {
      await db.raw('ALTER TABLE audit_log DISABLE TRIGGER USER');
      try {
        await statements(db);
      } finally {
        await db.raw('ALTER TABLE audit_log ENABLE TRIGGER USER');
      }
    });
  }

  async function restore(): Promise<void> {
    await tamper(async (db) => {
      await db.raw('DELETE FROM audit_log');
      await db.raw('INSERT INTO audit_log SELECT * FROM resilience_audit_backup');
    });
  }

  it('edits, deletions, swaps, a cut tail and recomputed hashes are each named at the right first break by GET /audit/verify', async () => {
    const started = Date.now();
    // Real records: claim events consumed from the broker, and evidence changes made through the API.
    for (let n = 0; n < CLAIMS; n++) {
      const response = await fetch(`${stack!.gateway.url}/api/claims/public/claims`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(claimBody(n)),
      });
      expect(response.status).toBe(201);
    }
    const writer = await bearer('evidence:write', 'resilience-writer');
    for (let n = 0; n < 3; n++) {
      const response = await fetch(`${stack!.gateway.url}/api/evidence/controls`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: writer },
        body: JSON.stringify({ key: `TAMPER-${n}-${Date.now()}`, title: `Control ${n}` }),
      });
      expect(response.status).toBe(201);
    }
    const expectedRecords = CLAIMS + 3;
    const recordCount = async () =>
      Number((await queryRows<{ n: string }>(stack!.evidenceDatabaseUrl, 'SELECT count(*) AS n FROM audit_log'))[0].n);
    await until('every claim event and change is in the audit log', async () => (await recordCount()) >= expectedRecords, 60000);
    await sleep(2000);
    const checkpointsResponse = await fetch(`${stack!.gateway.url}/api/evidence/audit/checkpoints?limit=100`, {
      headers: { authorization: reader },
    });
    expect(checkpointsResponse.status).toBe(200);
    const checkpoints = ((await checkpointsResponse.json()) as { items: { seq: number }[] }).items
      .map((c) => Number(c.seq))
      .sort((a, b) => a - b);
    const [{ n: totalText }] = await queryRows<{ n: string }>(stack!.evidenceDatabaseUrl, 'SELECT max(seq) AS n FROM audit_log');
    const last = Number(totalText);
    expect(checkpoints.length).toBeGreaterThanOrEqual(2);
    const clean = await verify();
    expect(clean.status).toBe(200);
    expect(clean.body.valid).toBe(true);
    await withDatabase(stack!.evidenceDatabaseUrl, (db) => db.raw('CREATE TABLE resilience_audit_backup AS SELECT * FROM audit_log'));

    const lastCheckpoint = checkpoints[checkpoints.length - 1];
    const firstCheckpointFrom = (seq: number) => checkpoints.find((c) => c >= seq)!;
    const cases: { name: string; apply: () => Promise<void>; expected: { seq: number; reasons: string[] } }[] = [
      {
        name: "edit a record's data",
        apply: () => tamper((db) => db.raw(`UPDATE audit_log SET data = jsonb_set(data, '{tampered}', 'true') WHERE seq = 4`)),
        expected: { seq: 4, reasons: ['edited_record'] },
      },
      {
        name: "edit a record's actor",
        apply: () => tamper((db) => db.raw(`UPDATE audit_log SET actor = 'someone-else' WHERE seq = ?`, [last - 1])),
        expected: { seq: last - 1, reasons: ['edited_record'] },
      },
      {
        name: 'delete a record',
        apply: () => tamper((db) => db.raw('DELETE FROM audit_log WHERE seq = 6')),
        expected: { seq: 6, reasons: ['gap'] },
      },
      {
        name: 'swap two records',
        apply: () =>
          tamper(async (db) => {
            await db.raw('UPDATE audit_log SET seq = 1000008 WHERE seq = 8');
            await db.raw('UPDATE audit_log SET seq = 8 WHERE seq = 9');
            await db.raw('UPDATE audit_log SET seq = 9 WHERE seq = 1000008');
          }),
        expected: { seq: 8, reasons: ['edited_record', 'broken_link'] },
      },
      {
        name: 'cut the tail after a checkpoint',
        apply: () => tamper((db) => db.raw('DELETE FROM audit_log WHERE seq >= ?', [lastCheckpoint - 1])),
        expected: { seq: lastCheckpoint - 1, reasons: ['truncated'] },
      },
      {
        name: 'edit and recompute every later hash (caught only by the signed checkpoint)',
        apply: () =>
          tamper(async (db) => {
            const rows = (await db.raw('SELECT * FROM audit_log WHERE seq >= 3 ORDER BY seq')).rows as any[];
            let prev = rows[0].prev_hash as string;
            for (const row of rows) {
              const record: Omit<AuditRecord, 'hash'> = {
                seq: Number(row.seq),
                action: row.action,
                source: row.source,
                entity_type: row.entity_type,
                entity_id: row.entity_id,
                actor: row.seq === rows[0].seq ? 'forger' : row.actor,
                event_id: row.event_id,
                occurred_at: row.occurred_at,
                recorded_at: row.recorded_at,
                data: row.data,
                prev_hash: prev,
              };
              const hash = recordHash(record);
              await db.raw('UPDATE audit_log SET actor = ?, prev_hash = ?, hash = ? WHERE seq = ?', [record.actor, prev, hash, record.seq]);
              prev = hash;
            }
          }),
        expected: { seq: firstCheckpointFrom(3), reasons: ['checkpoint_mismatch'] },
      },
    ];

    const outcomes: string[] = [];
    let wrong = 0;
    for (const tamperCase of cases) {
      await tamperCase.apply();
      const result = await verify();
      const ok =
        result.status === 200 &&
        result.body.valid === false &&
        result.body.first_invalid?.seq === tamperCase.expected.seq &&
        tamperCase.expected.reasons.includes(result.body.first_invalid.reason);
      if (!ok) wrong += 1;
      outcomes.push(
        `${tamperCase.name}: expected seq ${tamperCase.expected.seq} (${tamperCase.expected.reasons.join('|')}), got ${result.status} ${JSON.stringify(result.body.first_invalid)}${ok ? '' : ' — WRONG'}`,
      );
      await restore();
      const healed = await verify();
      if (!(healed.status === 200 && healed.body.valid)) {
        wrong += 1;
        outcomes.push(`after restoring "${tamperCase.name}" the log did not verify again`);
      }
    }

    writeFigures({
      scenario: 'audit-tampering',
      title: 'Audit log tampering',
      load: `${last} audit records (${CLAIMS} consumed claim events, evidence changes), ${checkpoints.length} signed checkpoints`,
      faults: `${cases.length} tampering attacks as database superuser with the append-only triggers disabled`,
      badInputsTried: cases.length,
      recordsLost: 0,
      duplicatesApplied: 0,
      unexpectedStatuses: wrong,
      durationSeconds: (Date.now() - started) / 1000,
      notes: outcomes,
    });

    expect(outcomes.filter((o) => o.includes('WRONG') || o.includes('did not verify'))).toEqual([]);
  });
});
