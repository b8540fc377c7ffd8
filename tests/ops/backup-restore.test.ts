/**
 * The restore drill: a loaded platform (claims with photos, a run approved into a binder, claim events in the
 * audit log) is backed up with `pnpm ops:backup`, restored with `pnpm ops:restore` into fresh databases and
 * a fresh file store, and started again: every claim and attachment reads back byte for byte, the audit log
 * verifies with a valid signature, and the binder built before the backup still verifies offline and its
 * checkpoint is consistent with the restored log.
 */
import { spawnSync } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { verifyConsistency } from '../../packages/merkle/src';
import {
  bearer,
  callApi,
  createEmptyDatabase,
  createEvidenceRun,
  eventually,
  fnolBody,
  startStack,
  TEST_JWT_SECRET,
  uniquePolicyNumber,
  type Stack,
} from '@platform/testing';
import { runStandaloneWitness } from '../../packages/witness/src';

const ROOT = path.resolve(__dirname, '../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const fnol = () => fnolBody({ policy_number: uniquePolicyNumber(), claimant: { name: 'Restore Person', email: 'restore@example.com' } });
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The latest signed checkpoint note (c2sp.org/tlog-checkpoint): its tree size and root hash. */
async function checkpoint(baseUrl: string, authorization: string): Promise<{ size: number; root: Buffer }> {
  const response = await fetch(`${baseUrl}/api/evidence/audit/checkpoint`, { headers: { authorization } });
  expect(response.status).toBe(200);
  const [, size, root] = (await response.text()).split('\n');
  return { size: Number(size), root: Buffer.from(root, 'base64') };
}

function runScript(script: string, args: string[], env: Record<string, string>) {
  const result = spawnSync(TSX, [path.join(ROOT, 'scripts', script), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('backup and restore, drilled', () => {
  const signingKey = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const work = mkdtempSync(path.join(tmpdir(), 'restore-drill-'));
  const cleanups: (() => Promise<unknown>)[] = [];
  let original: Stack;

  /** Fresh, empty databases and file store to restore into (dropped after the tests). */
  async function freshTarget(): Promise<Record<'CLAIMS_DATABASE_URL' | 'EVIDENCE_DATABASE_URL' | 'DATA_DIR', string>> {
    const claimsDb = await createEmptyDatabase('restored_claims');
    const evidenceDb = await createEmptyDatabase('restored_evidence');
    cleanups.push(
      () => claimsDb.drop(),
      () => evidenceDb.drop(),
    );
    return { CLAIMS_DATABASE_URL: claimsDb.url, EVIDENCE_DATABASE_URL: evidenceDb.url, DATA_DIR: mkdtempSync(path.join(work, 'data-')) };
  }

  /** The platform on restored databases and files, with the same signing key (a secret, restored from where secrets live). */
  async function startOn(target: Record<string, string>, overrides: Record<string, string> = {}): Promise<Stack> {
    const stack = await startStack({ ...overrides, AUDIT_SIGNING_KEY: signingKey, ...target });
    cleanups.push(() => stack.stop());
    return stack;
  }

  /** Restores `backup` into a fresh target and starts the platform on it. */
  async function restoreAndStart(backup: string, overrides: Record<string, string> = {}): Promise<Stack> {
    const target = await freshTarget();
    expect(runScript('ops-restore.ts', ['--from', backup], target)).toMatchObject({ status: 0 });
    return startOn(target, overrides);
  }

  beforeAll(async () => {
    original = await startOn({});
  }, 120000);

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  });

  it('restores a loaded platform into fresh databases and storage, and everything reads back and verifies', async () => {
    const gateway = original.gateway.url;
    const photo = Buffer.concat([Buffer.from('ffd8ffe000104a46494600', 'hex'), Buffer.alloc(2048, 7), Buffer.from('ffd9', 'hex')]);
    const claims: { id: string; photo?: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await callApi(
        gateway,
        'POST',
        '/api/claims/public/claims',
        '',
        fnolBody({ policy_number: `POL-RESTORE-${i}`, claimant: { name: `Restore Person ${i}`, email: `restore${i}@example.com` } }),
        201,
      );
      const form = new FormData();
      form.append('document_type', 'photos_of_damage');
      form.append('file', new Blob([photo], { type: 'image/jpeg' }), `photo-${i}.jpg`);
      const upload = await fetch(`${gateway}/api/claims/public/claims/${created.claim_id}/attachments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${created.access_token}` },
        body: form,
      });
      const uploaded = (await upload.json()) as { attachments: { attachment_id: string }[] };
      if (upload.status !== 201) throw new Error(`upload answered ${upload.status}: ${JSON.stringify(uploaded)}`);
      claims.push({ id: created.claim_id, photo: uploaded.attachments[0].attachment_id });
    }
    const preparer = await bearer('evidence:write', 'preparer-pat');
    const examiner = await bearer('evidence:approve audit:read', 'examiner-eve');
    const runId = await createEvidenceRun(gateway, preparer, {
      control: { key: 'RESTORE-1', title: 'Backups are restored quarterly' },
      period: { start: '2026-07-01', end: '2026-09-30' },
      notes: [{ title: 'Restore test passed', collected_at: '2026-08-12T10:00:00Z' }],
      submit: true,
    });
    await callApi(gateway, 'POST', `/api/evidence/runs/${runId}/decision`, examiner, { decision: 'approved', rationale: 'Complete' }, 201);
    const binder = await callApi(gateway, 'POST', `/api/evidence/binders/run/${runId}`, preparer, undefined, 201);
    const binderZip = Buffer.from(
      await (
        await fetch(`${gateway}/api/evidence/binder-archives/${binder.binder_id}`, { headers: { authorization: examiner } })
      ).arrayBuffer(),
    );
    const binderCheckpoint = await checkpoint(gateway, examiner);
    await eventually(async () => {
      const records = await callApi(
        gateway,
        'GET',
        `/api/evidence/audit/records?source=claims&entity_id=${claims[2].id}`,
        examiner,
        undefined,
        200,
      );
      return records.items.length > 0;
    });

    const backup = path.join(work, 'backup');
    const backedUp = runScript('ops-backup.ts', ['--out', backup], {
      CLAIMS_DATABASE_URL: original.claimsDatabaseUrl,
      EVIDENCE_DATABASE_URL: original.evidenceDatabaseUrl,
      DATA_DIR: original.env.DATA_DIR,
      AUDIT_SIGNING_KEY: signingKey,
    });
    expect(backedUp).toMatchObject({ status: 0 });
    const manifest = JSON.parse(readFileSync(path.join(backup, 'manifest.json'), 'utf8')) as { files: { path: string }[] };
    const names = manifest.files.map((file) => file.path);
    expect(names).toEqual(expect.arrayContaining(['claims.dump', 'evidence.dump', 'keys/audit-signing-key.pub.pem']));
    expect(names.filter((name) => name.startsWith('files/claims/attachments/')).length).toBeGreaterThan(0);
    expect(names.some((name) => name.endsWith('.pem') && !name.endsWith('.pub.pem'))).toBe(false);

    // a damaged backup is refused before anything is written
    const target = await freshTarget();
    const keyFile = path.join(backup, 'keys/audit-signing-key.pub.pem');
    const key = readFileSync(keyFile);
    writeFileSync(keyFile, Buffer.concat([key, Buffer.from('\n')]));
    const refused = runScript('ops-restore.ts', ['--from', backup], target);
    expect(refused.status).toBe(1);
    expect(refused.output).toContain('does not match its manifest: keys/audit-signing-key.pub.pem');
    writeFileSync(keyFile, key);

    const restored = runScript('ops-restore.ts', ['--from', backup], target);
    expect(restored).toMatchObject({ status: 0 });
    expect(runScript('ops-restore.ts', ['--from', backup], target).output).toContain('already holds tables');

    await original.stop();
    const again = await startOn(target);
    const adjuster = await bearer('claims:read', 'adjuster-ana');
    for (const claim of claims) {
      const file = await callApi(again.gateway.url, 'GET', `/api/claims/claims/${claim.id}`, adjuster, undefined, 200);
      expect(file.claim.claim_id).toBe(claim.id);
      const content = await fetch(`${again.gateway.url}/api/claims/claims/${claim.id}/attachments/${claim.photo}/content`, {
        headers: { authorization: adjuster },
      });
      expect(content.status).toBe(200);
      expect(sha256(Buffer.from(await content.arrayBuffer()))).toBe(sha256(photo));
    }
    const verified = await callApi(again.gateway.url, 'GET', '/api/evidence/audit/verify', examiner, undefined, 200);
    expect(verified).toMatchObject({ valid: true });
    expect(JSON.stringify(verified)).not.toContain('"signature_valid":false');
    // the binder from before the backup: offline against the pinned key, and its tree is a prefix of the restored log
    const serviceKey = (
      await fetch(`${again.gateway.url}/api/evidence/audit/public-key`, { headers: { authorization: examiner } })
    ).headers.get('x-audit-verifier-key')!;
    writeFileSync(path.join(work, 'binder.zip'), binderZip);
    const offline = spawnSync(
      process.execPath,
      [path.join(ROOT, 'services/evidence/src/features/binders/verifier/verify.mjs'), 'binder.zip', '--service-key', serviceKey],
      { cwd: work, encoding: 'utf8' },
    );
    expect(offline.stdout).toContain('Binder verified.');
    const latest = await checkpoint(again.gateway.url, examiner);
    const consistency = (await callApi(
      again.gateway.url,
      'GET',
      `/api/evidence/audit/proofs/consistency?from=${binderCheckpoint.size}&to=${latest.size}`,
      examiner,
      undefined,
      200,
    )) as { proof: string[] };
    const proof = consistency.proof.map((hash) => Buffer.from(hash, 'base64'));
    expect(latest.size).toBeGreaterThanOrEqual(binderCheckpoint.size);
    expect(verifyConsistency(binderCheckpoint.size, latest.size, proof, binderCheckpoint.root, latest.root)).toBe(true);
  }, 240000);

  it('a witness accepts a restore of what it last cosigned, and refuses a restore from before it: that log forked', async () => {
    const source = await startOn({});
    const reader = await bearer('audit:read', 'examiner-eve');
    const logKey = (await fetch(`${source.gateway.url}/api/evidence/audit/public-key`, { headers: { authorization: reader } })).headers.get(
      'x-audit-verifier-key',
    )!;
    const witnessDb = await createEmptyDatabase('restore_witness');
    cleanups.push(() => witnessDb.drop());
    const witnessData = mkdtempSync(path.join(work, 'witness-'));
    const watch = async (evidenceUrl: string) => {
      const witness = await runStandaloneWitness({
        PORT: '0',
        DATABASE_URL: witnessDb.url,
        DATA_DIR: witnessData,
        LOG_LEVEL: 'warn',
        WITNESS_EVIDENCE_URL: evidenceUrl,
        WITNESS_LOG_VERIFIER_KEY: logKey,
        WITNESS_LOG_JWT_SECRET: TEST_JWT_SECRET,
        WITNESS_POLL_INTERVAL_MS: '200',
      });
      cleanups.push(() => witness.close());
      return witness;
    };
    const state = async (witness: { url: string }) =>
      (await (await fetch(`${witness.url}/state`)).json()) as { cosigned?: { size: number }; refusals: unknown[] | number };
    // an empty log has no checkpoint yet (404)
    const logSize = async (stack: Stack) => {
      const response = await fetch(`${stack.gateway.url}/api/evidence/audit/checkpoint`, { headers: { authorization: reader } });
      return response.status === 404 ? 0 : Number((await response.text()).split('\n')[1]);
    };
    const cosignedUpTo = async (witness: { url: string }, size: number) =>
      eventually(async () => ((await state(witness)).cosigned?.size ?? 0) >= size, 30000);
    const report = (stack: Stack) => callApi(stack.gateway.url, 'POST', '/api/claims/public/claims', '', fnol(), 201);

    let witness = await watch(source.evidence.url);
    await report(source);
    await eventually(async () => (await logSize(source)) >= 1);
    await cosignedUpTo(witness, await logSize(source));
    const env = {
      CLAIMS_DATABASE_URL: source.claimsDatabaseUrl,
      EVIDENCE_DATABASE_URL: source.evidenceDatabaseUrl,
      DATA_DIR: source.env.DATA_DIR,
      AUDIT_SIGNING_KEY: signingKey,
    };
    const old = path.join(work, 'old');
    expect(runScript('ops-backup.ts', ['--out', old], env)).toMatchObject({ status: 0 });
    // read after the backup: the old backup's log is at most this long (the log only grows)
    const oldLogAtMost = await logSize(source);
    await report(source);
    await report(source);
    // compared with that, not with the witness's size: the witness polls every 200 ms and may cosign first
    const grown = await eventually(async () => {
      const size = await logSize(source);
      return size > oldLogAtMost ? size : undefined;
    }, 30000);
    await cosignedUpTo(witness, grown);
    const latest = path.join(work, 'latest');
    expect(runScript('ops-backup.ts', ['--out', latest], env)).toMatchObject({ status: 0 });
    await witness.close();
    await source.stop();

    // the same exchanges, so the same log origin: a restore is the same log, not a new one
    const names = {
      CLAIMS_EXCHANGE: source.env.CLAIMS_EXCHANGE,
      EVIDENCE_EXCHANGE: source.env.EVIDENCE_EXCHANGE,
      CLAIM_EVENTS_QUEUE: source.env.CLAIM_EVENTS_QUEUE,
    };
    const fromLatest = await restoreAndStart(latest, names);
    witness = await watch(fromLatest.evidence.url);
    await report(fromLatest);
    const extended = await eventually(async () => {
      const size = await logSize(fromLatest);
      return size > grown ? size : undefined;
    });
    await cosignedUpTo(witness, extended);
    await witness.close();
    await fromLatest.stop();

    const fromOld = await restoreAndStart(old, names);
    witness = await watch(fromOld.evidence.url);
    for (let i = 0; i < 4; i++) await report(fromOld);
    await eventually(async () => (await logSize(fromOld)) > extended);
    await eventually(async () => {
      const { refusals } = await state(witness);
      return (Array.isArray(refusals) ? refusals.length : refusals) > 0;
    }, 30000);
    expect((await state(witness)).cosigned!.size).toBe(extended);
  }, 240000);
});
