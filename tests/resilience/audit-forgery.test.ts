import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDatabase, type Knex } from '@platform/db';
import { bearer, callApi, testServiceEnv, TEST_JWT_SECRET } from '@platform/testing';
import { formatWitnessVerifierKey, runStandaloneWitness, type WitnessOutcome } from '../../packages/witness/src';
import { takeCheckpoint } from '../../services/evidence/src/features/audit/audit-checkpoints';
import { createCheckpointSigner, parseSigningKey } from '../../services/evidence/src/features/audit/checkpoint-signer';
import { readZip } from '../../services/evidence/src/features/binders/verifier/zip-reader';
import { canonicalRecord, chainHash, type AuditRecord } from '../../services/evidence/src/shared/audit-chain';
import { writeReliability } from './support/report';
import { writeFigures } from './support/results';
import { startScenarioStack, type ScenarioStack } from './support/stack';

/**
 * The attacks the hash chain alone cannot catch, by someone who owns the evidence database and has stolen
 * the service's signing key: rewrite history and re-sign it, cut the tail and the checkpoints that anchored
 * it, and fork (serve one head to one reader and another to the next). Each runs through psql as the
 * database owner, with the append-only triggers off inside the attacker's transaction, against the three
 * real processes; a standalone witness (own key, own database) watches the log, and examiners check the
 * binders they were handed with the verify.mjs each binder carries.
 */

const WITNESS = 'resilience-witness';
const AUDIT_TABLES = ['audit_log', 'audit_leaves', 'audit_tree_nodes', 'audit_checkpoints', 'audit_cosignatures', 'audit_witness_refusals'];
const signingKeyBase64 = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
const witnessKey = generateKeyPairSync('ed25519').privateKey;
const stolenSigner = createCheckpointSigner(parseSigningKey(signingKeyBase64));
const serviceVerifierKey = stolenSigner.verifierKey;
const witnessVerifierKey = formatWitnessVerifierKey(WITNESS, witnessKey);

interface Offline {
  status: number | null;
  output: string;
}

describe('audit log forgery by the database owner with the stolen service key', () => {
  let stack: ScenarioStack | undefined;
  let witnessEnv: Awaited<ReturnType<typeof testServiceEnv>> | undefined;
  let witness: Awaited<ReturnType<typeof runStandaloneWitness>> | undefined;
  let db: Knex;
  let writer: string;
  let examiner: string;
  let controlVersionId: string;
  let periodDay = 0;
  const dirs: string[] = [];
  const notes: string[] = [];
  let wrong = 0;
  const started = Date.now();

  beforeAll(async () => {
    stack = await startScenarioStack('audit-forgery', {
      AUDIT_SIGNING_KEY: signingKeyBase64,
      AUDIT_WITNESS_KEYS: witnessVerifierKey,
      // The checkpointer stays out of the way: checkpoints are taken by the test, honest ones and forged ones alike.
      AUDIT_CHECKPOINT_EVERY: '1000000',
      AUDIT_CHECKPOINT_INTERVAL_MS: '3600000',
      AUDIT_CHECKPOINT_DELAY_MS: '3600000',
    });
    db = createDatabase({ url: stack.evidenceDatabaseUrl, poolMax: 2 });
    writer = await bearer('evidence:write', 'resilience-writer');
    examiner = await bearer('audit:read', 'resilience-examiner');
  });

  afterAll(async () => {
    writeFigures({
      scenario: 'audit-forgery',
      title: 'Audit log forgery with the stolen service key',
      load: 'binders built through the gateway (control, run, evidence note, binder), honest checkpoints cosigned by a standalone witness with its own key and database',
      faults:
        '3 forgeries through psql as the database owner with the append-only triggers off, checkpoints re-signed with the stolen service key: rewrite and rehash, truncate the tail and delete the checkpoints, fork',
      badInputsTried: 3,
      recordsLost: 0,
      duplicatesApplied: 0,
      unexpectedStatuses: wrong,
      durationSeconds: (Date.now() - started) / 1000,
      notes,
    });
    writeReliability();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await witness?.close();
    await witnessEnv?.cleanup();
    await db?.destroy();
    await stack?.cleanup();
  });

  beforeEach(async () => {
    await witness?.close();
    await witnessEnv?.cleanup();
    await resetLog();
    witnessEnv = await testServiceEnv('witness', []);
    witness = await runStandaloneWitness({
      PORT: '0',
      DATABASE_URL: witnessEnv.databaseUrl,
      DATA_DIR: witnessEnv.dataDir,
      LOG_LEVEL: 'silent',
      WITNESS_EVIDENCE_URL: stack!.gateway.url,
      WITNESS_NAME: WITNESS,
      WITNESS_KEY: witnessKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      WITNESS_LOG_VERIFIER_KEY: serviceVerifierKey,
      WITNESS_LOG_JWT_SECRET: TEST_JWT_SECRET,
      WITNESS_POLL_INTERVAL_MS: '3600000',
    });
    await witness.witness.pollNow(); // the poll the witness starts with ends before a scenario writes
    // A control of its own: the binders of earlier scenarios' controls cite checkpoints of a log reset since.
    const control = await api('POST', '/api/evidence/controls', writer, {
      key: `FORGERY-${Date.now()}`,
      title: 'Access reviews',
      frequency: 'quarterly',
    });
    controlVersionId = control.current_version.control_version_id;
  });

  const api = (method: string, pathname: string, authorization: string, body?: unknown) =>
    callApi(stack!.gateway.url, method, pathname, authorization, body);

  /** Runs SQL through psql as the database owner, in one transaction with the audit tables' triggers off. */
  function psql(sql: string): string {
    const disable = AUDIT_TABLES.map((table) => `ALTER TABLE ${table} DISABLE TRIGGER USER;`).join('\n');
    const enable = AUDIT_TABLES.map((table) => `ALTER TABLE ${table} ENABLE TRIGGER USER;`).join('\n');
    const result = spawnSync('psql', [stack!.evidenceDatabaseUrl, '-X', '-q', '-t', '-A', '-v', 'ON_ERROR_STOP=1'], {
      input: `BEGIN;\n${disable}\n${sql}\n${enable}\nCOMMIT;\n`,
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`psql failed: ${result.stderr}`);
    return result.stdout;
  }

  /** Each scenario starts from an empty log that the new witness will see grow from its first checkpoint. */
  async function resetLog(): Promise<void> {
    psql(
      [...AUDIT_TABLES]
        .reverse()
        .map((table) => `DELETE FROM ${table};`)
        .join(' '),
    );
  }

  /** What the honest checkpointer (or, after a forgery, the attacker with the stolen key) signs. */
  async function signCheckpoint(): Promise<void> {
    await takeCheckpoint(db, stolenSigner, stack!.env.EVIDENCE_EXCHANGE);
  }

  async function witnessOnce(): Promise<WitnessOutcome> {
    return witness!.witness.witness.witnessOnce();
  }

  /** A run with one evidence note, checkpointed and shown to the witness, and its binder's zip. */
  async function binder(title: string): Promise<Buffer> {
    periodDay += 1;
    const day = new Date(Date.UTC(2026, 0, 1) + periodDay * 86400000).toISOString().slice(0, 10);
    const run = await api('POST', '/api/evidence/runs', writer, {
      control_version_id: controlVersionId,
      period_start: day,
      period_end: day,
    });
    await api('POST', `/api/evidence/runs/${run.run_id}/evidence`, writer, { kind: 'note', title });
    await signCheckpoint();
    await witnessOnce();
    const built = await api('POST', `/api/evidence/binders/run/${run.run_id}`, writer);
    const response = await fetch(`${stack!.gateway.url}${new URL(built.download_url).pathname}`, { headers: { authorization: examiner } });
    expect(response.status).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  }

  /** The examiner's check: the verify.mjs the zip carries, alone in a bare directory, with the pinned keys. */
  function verifyOffline(zip: Buffer, keys: string[]): Offline {
    const dir = mkdtempSync(path.join(tmpdir(), 'examiner-'));
    dirs.push(dir);
    writeFileSync(path.join(dir, 'verify.mjs'), readZip(zip).get('verify.mjs')!);
    writeFileSync(path.join(dir, 'binder.zip'), zip);
    const args = keys.flatMap((key) => (key === witnessVerifierKey ? ['--witness-key', key] : ['--service-key', key]));
    const result = spawnSync(process.execPath, ['verify.mjs', 'binder.zip', ...args], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH },
    });
    return { status: result.status, output: result.stdout + result.stderr };
  }

  const failures = (offline: Offline) =>
    offline.output
      .split('\n')
      .filter((line) => line.startsWith('FAIL'))
      .join('; ');

  /** Records one scenario's outcome for RELIABILITY.md: what the witness, the log's own verify and the examiner saw. */
  async function report(name: string, outcome: WitnessOutcome, forged: Buffer, expected: { witness: string }): Promise<void> {
    const serviceKeyOnly = verifyOffline(forged, [serviceVerifierKey]);
    const withWitness = verifyOffline(forged, [serviceVerifierKey, witnessVerifierKey]);
    const logVerify = await api('GET', '/api/evidence/audit/verify', examiner);
    const caughtByWitness = outcome.outcome === 'refused' && outcome.reason === expected.witness;
    const caughtOffline = withWitness.status === 1;
    const ok = caughtByWitness && caughtOffline && logVerify.first_invalid?.reason === 'witness_refused';
    if (!ok) wrong += 1;
    notes.push(
      `${name}: witness ${outcome.outcome}${'reason' in outcome ? ` (${outcome.reason})` : ''}; ` +
        `GET /audit/verify ${logVerify.valid ? 'valid' : `${logVerify.first_invalid.reason} at ${logVerify.first_invalid.seq}`}; ` +
        `verify.mjs with the service key only exit ${serviceKeyOnly.status}${serviceKeyOnly.status === 0 ? ' (the stolen key signs the forgery)' : ` (${failures(serviceKeyOnly)})`}; ` +
        `with the witness key pinned exit ${withWitness.status} (${failures(withWitness)})${ok ? '' : ' — NOT CAUGHT'}`,
    );
    expect(outcome).toMatchObject({ outcome: 'refused', reason: expected.witness });
    expect(withWitness.output).toContain(`FAIL  checkpoint: not cosigned by the pinned witness ${WITNESS}`);
    expect(withWitness.status).toBe(1);
    expect(logVerify).toMatchObject({ valid: false, first_invalid: { reason: 'witness_refused' } });
  }

  it('a record edited, every later hash recomputed and the tree re-signed with the stolen key: the witness refuses it, the examiner pinning the witness key rejects the new binder', async () => {
    const honest = await binder('before the rewrite');
    expect(verifyOffline(honest, [serviceVerifierKey, witnessVerifierKey]).status).toBe(0);

    // Edit record 2, rehash the chain after it, drop the tree and the checkpoints; the forged checkpoint rebuilds and re-signs the tree.
    psql(`UPDATE audit_log SET actor = 'forger' WHERE seq = 2;`);
    const rows = (await db('audit_log').orderBy('seq')) as AuditRecord[];
    let prev = rows[0].prev_hash;
    const updates: string[] = [];
    for (const row of rows) {
      const hash = chainHash(
        prev,
        Buffer.from(canonicalRecord({ ...row, seq: Number(row.seq), event_id: row.event_id ?? null, prev_hash: prev }), 'utf8'),
      );
      updates.push(`UPDATE audit_log SET prev_hash = '${prev}', hash = '${hash}' WHERE seq = ${Number(row.seq)};`);
      prev = hash;
    }
    psql(
      [
        ...updates,
        'DELETE FROM audit_cosignatures; DELETE FROM audit_checkpoints; DELETE FROM audit_tree_nodes; DELETE FROM audit_leaves;',
      ].join('\n'),
    );
    const forged = await binder('after the rewrite');
    await report('rewrite and re-sign', await witnessOnce(), forged, { witness: 'inconsistent' });
  });

  it('the tail cut and its checkpoints deleted, the shorter log re-signed with the stolen key: the witness refuses it, the examiner pinning the witness key rejects the new binder', async () => {
    await binder('first');
    const cited = await binder('cut later');
    expect(verifyOffline(cited, [serviceVerifierKey, witnessVerifierKey]).status).toBe(0);
    const size = Number((await db('audit_log').max('seq as n').first())?.n);
    const keep = size - 3;
    psql(
      `DELETE FROM audit_cosignatures; DELETE FROM audit_checkpoints;
       DELETE FROM audit_log WHERE seq > ${keep}; DELETE FROM audit_leaves WHERE seq > ${keep};
       DELETE FROM audit_tree_nodes WHERE (idx + 1) * (1::bigint << level) > ${keep};`,
    );
    await signCheckpoint();
    const outcome = await witnessOnce();
    expect(outcome).toEqual({ outcome: 'refused', reason: 'truncated', size: keep });
    const forged = await binder('after the cut');
    await report('truncate and delete the checkpoints', outcome, forged, { witness: 'truncated' });
  });

  it('a fork — the database copied, each copy extended differently, one head shown to the witness and the other to an examiner — is refused by the witness and the examiner pinning its key', async () => {
    await binder('common history');
    const forkAt = Number((await db('audit_log').max('seq as n').first())?.n);
    // The copy: every audit table as it is at the fork point.
    psql(
      AUDIT_TABLES.map((table) => `DROP TABLE IF EXISTS fork_${table}; CREATE TABLE fork_${table} AS SELECT * FROM ${table};`).join('\n'),
    );
    const branchA = await binder('branch A: shown to the witness');
    expect(verifyOffline(branchA, [serviceVerifierKey, witnessVerifierKey]).status).toBe(0);
    // The other copy is served from now on, and extended by other records to the same size.
    psql(
      AUDIT_TABLES.map((table) => `DELETE FROM ${table}; INSERT INTO ${table} SELECT * FROM fork_${table}; DROP TABLE fork_${table};`).join(
        '\n',
      ),
    );
    expect(Number((await db('audit_log').max('seq as n').first())?.n)).toBe(forkAt);
    const branchB = await binder('branch B: shown to the examiner');
    await report('fork', await witnessOnce(), branchB, { witness: 'forked' });
  });
});
