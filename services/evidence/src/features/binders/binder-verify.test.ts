import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Archiver } from 'archiver';
import { binaryBody } from '@platform/testing';
import { generateKeyPairSync } from 'node:crypto';
import { cosign, formatWitnessVerifierKey } from '@platform/witness';
import { parseNote } from '@platform/merkle';
import { takeCheckpoint } from '../audit/audit-checkpoints';
import { addCosignature, trustedWitnesses } from '../audit/audit-witnesses';
import { createCheckpointSigner, parseSigningKey } from '../audit/checkpoint-signer';
import { createControl, createRun, startWorkflowService, type WorkflowService } from '../../testing/workflow-test-kit';
import { readZip } from './verifier/zip-reader';

// archiver 7 at runtime (a factory function), as the binder zip itself uses it.
const archiver = require('archiver') as (format: 'zip') => Archiver;
const REPO_ROOT = path.join(__dirname, '../../../../..');

/** A zip of the given entries, in order. */
async function zipOf(entries: Map<string, Buffer>): Promise<Buffer> {
  const archive = archiver('zip');
  const chunks: Buffer[] = [];
  archive.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve, reject) => {
    archive.on('end', resolve);
    archive.on('error', reject);
  });
  for (const [name, bytes] of entries) archive.append(bytes, { name });
  await archive.finalize();
  await ended;
  return Buffer.concat(chunks);
}

const sha256 = (bytes: Buffer) => require('node:crypto').createHash('sha256').update(bytes).digest('hex') as string;

/** The entries with `name` replaced, and SHA256SUMS made to agree (as someone rebuilding the zip would). */
function replaced(entries: Map<string, Buffer>, name: string, bytes: Buffer, { fixSums = true } = {}): Map<string, Buffer> {
  const copy = new Map(entries);
  copy.set(name, bytes);
  if (fixSums) {
    const sums = [...copy].filter(([entry]) => entry !== 'SHA256SUMS').map(([entry, content]) => `${sha256(content)}  ${entry}\n`);
    copy.set('SHA256SUMS', Buffer.from(sums.join('')));
  }
  return copy;
}

describe('binders verify themselves offline', () => {
  let kit: WorkflowService;
  let controlVersionId: string;
  let serviceKey: string;
  const dirs: string[] = [];

  beforeAll(async () => {
    kit = await startWorkflowService();
    controlVersionId = (await createControl(kit, { key: 'VFY-1', title: 'Access reviews' })).current_version.control_version_id;
    serviceKey = createCheckpointSigner(parseSigningKey(kit.config.AUDIT_SIGNING_KEY as string)).verifierKey;
  });
  afterAll(async () => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await kit?.stop();
  });

  const checkpoint = () =>
    takeCheckpoint(kit.db, createCheckpointSigner(parseSigningKey(kit.config.AUDIT_SIGNING_KEY as string)), kit.config.EVIDENCE_EXCHANGE);

  /** A run with evidence, checkpointed, and its binder's zip. */
  async function binderZip(): Promise<{ zip: Buffer; manifest: Record<string, any> }> {
    const run = await createRun(kit, controlVersionId);
    await kit
      .http()
      .post(`/api/evidence/runs/${run.run_id}/evidence`)
      .set('Authorization', kit.auth.writer)
      .send({ kind: 'note', title: 'Quarterly review done' })
      .expect(201);
    await checkpoint();
    const binder = (await kit.http().post(`/api/evidence/binders/run/${run.run_id}`).set('Authorization', kit.auth.writer).expect(201))
      .body;
    const zip = (
      await kit
        .http()
        .get(new URL(binder.download_url).pathname)
        .set('Authorization', kit.auth.examiner)
        .buffer(true)
        .parse(binaryBody)
        .expect(200)
    ).body as Buffer;
    return { zip, manifest: binder.manifest };
  }

  /** Runs the verify.mjs the zip carries, copied alone into a directory outside the repository (no node_modules to reach). */
  function runCarriedVerifier(zip: Buffer, args: string[]) {
    const dir = mkdtempSync(path.join(tmpdir(), 'examiner-'));
    dirs.push(dir);
    writeFileSync(path.join(dir, 'verify.mjs'), readZip(zip).get('verify.mjs')!);
    writeFileSync(path.join(dir, 'binder.zip'), zip);
    const result = spawnSync(process.execPath, ['verify.mjs', 'binder.zip', ...args], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH },
    });
    return { status: result.status, output: result.stdout + result.stderr };
  }

  it('verifies with the verify.mjs inside it, from a bare directory, against the pinned service key', async () => {
    const { zip, manifest } = await binderZip();
    expect(manifest.audit.proofs.length).toBe(manifest.audit.records.length);
    expect(manifest.audit.checkpoint.note).toMatch(/^evidence\.claims-platform\/audit-log\n/);
    const { status, output } = runCarriedVerifier(zip, ['--service-key', serviceKey]);
    expect(output).toContain(
      `OK    audit records: all ${manifest.audit.records.length} proven included in the signed tree of ${manifest.audit.checkpoint.seq}`,
    );
    expect(output).toMatch(/OK {4}SHA256SUMS: all \d+ files match/);
    expect(output).toContain('Binder verified.');
    expect(status).toBe(0);
  });

  it('verifies when built the moment its run is approved, with no checkpoint taken before: building signs one', async () => {
    const run = await createRun(kit, controlVersionId);
    const http = kit.http();
    await http
      .post(`/api/evidence/runs/${run.run_id}/evidence`)
      .set('Authorization', kit.auth.writer)
      .send({ kind: 'note', title: 'Restore tested' })
      .expect(201);
    await http.post(`/api/evidence/runs/${run.run_id}/submit`).set('Authorization', kit.auth.writer).expect(200);
    await http
      .post(`/api/evidence/runs/${run.run_id}/decision`)
      .set('Authorization', kit.auth.approver)
      .send({ decision: 'approved', rationale: 'Restore evidence is complete' })
      .expect(201);
    const binder = (await http.post(`/api/evidence/binders/run/${run.run_id}`).set('Authorization', kit.auth.writer).expect(201)).body;
    expect(binder.final).toBe(true);
    expect(binder.manifest.audit.checkpoint.seq).toBeGreaterThanOrEqual(binder.manifest.audit.records.at(-1).seq);
    const zip = (
      await http
        .get(new URL(binder.download_url).pathname)
        .set('Authorization', kit.auth.examiner)
        .buffer(true)
        .parse(binaryBody)
        .expect(200)
    ).body as Buffer;
    const { status, output } = runCarriedVerifier(zip, ['--service-key', serviceKey]);
    expect(output).toContain('Binder verified.');
    expect(status).toBe(0);
  });

  it('VERIFY.md checks the checkpoint note’s signature with OpenSSL, as it shows', async () => {
    const { zip } = await binderZip();
    const dir = mkdtempSync(path.join(tmpdir(), 'examiner-'));
    dirs.push(dir);
    for (const [name, bytes] of readZip(zip)) if (!name.includes('/')) writeFileSync(path.join(dir, name), bytes);
    const shown = readZip(zip).get('VERIFY.md')!.toString('utf8');
    const commands = shown
      .split('\n')
      .filter((line) => /^ {4}(head -n 3 checkpoint\.note|grep -F|openssl pkeyutl .*checkpoint-note)/.test(line));
    expect(commands).toHaveLength(3);
    const result = spawnSync('bash', ['-c', commands.map((line) => line.trim()).join('\n')], { cwd: dir, encoding: 'utf8' });
    expect(result.stdout).toContain('Signature Verified Successfully');
  });

  it('carries the witness cosignatures of its checkpoint and verifies them against the pinned witness key', async () => {
    const witness = generateKeyPairSync('ed25519').privateKey;
    const witnessKey = formatWitnessVerifierKey('witness.example', witness);
    const run = await createRun(kit, controlVersionId);
    const taken = (await checkpoint())!;
    const line = cosign(parseNote(taken.note!)!.text, 'witness.example', witness, 1767225600).line;
    await addCosignature(kit.db, trustedWitnesses([witnessKey]), taken.seq, line);
    const binder = (await kit.http().post(`/api/evidence/binders/run/${run.run_id}`).set('Authorization', kit.auth.writer).expect(201))
      .body;
    expect(binder.manifest.audit.checkpoint.note).toBe(`${taken.note}${line}`);
    const zip = (
      await kit
        .http()
        .get(new URL(binder.download_url).pathname)
        .set('Authorization', kit.auth.examiner)
        .buffer(true)
        .parse(binaryBody)
        .expect(200)
    ).body as Buffer;
    const { status, output } = runCarriedVerifier(zip, ['--service-key', serviceKey, '--witness-key', witnessKey]);
    expect(output).toContain('OK    checkpoint: cosigned by witness witness.example at 2026-01-01T00:00:00.000Z');
    expect(status).toBe(0);
    const other = formatWitnessVerifierKey('witness.example', generateKeyPairSync('ed25519').privateKey);
    const refused = runCarriedVerifier(zip, ['--service-key', serviceKey, '--witness-key', other]);
    expect(refused.output).toContain('FAIL  checkpoint: not cosigned by the pinned witness witness.example');
    expect(refused.status).toBe(1);
  });

  it('verifies with pnpm verify-binder, the key given in a file, and proves the log only grew since the control’s previous binder', async () => {
    const { zip, manifest } = await binderZip();
    expect(manifest.audit.consistency).toEqual({ note: expect.any(String), proof: expect.any(Array) });
    const dir = mkdtempSync(path.join(tmpdir(), 'examiner-'));
    dirs.push(dir);
    writeFileSync(path.join(dir, 'binder.zip'), zip);
    writeFileSync(path.join(dir, 'service.vkey'), `${serviceKey}\n`);
    const result = spawnSync(
      path.join(REPO_ROOT, 'node_modules/.bin/pnpm'),
      ['-s', 'verify-binder', path.join(dir, 'binder.zip'), '--service-key', path.join(dir, 'service.vkey')],
      { cwd: REPO_ROOT, encoding: 'utf8' },
    );
    expect(result.stdout).toMatch(
      /OK {4}consistency: the log of \d+ records in the previous binder's checkpoint is a prefix of this one's \d+/,
    );
    expect(result.status).toBe(0);
  });

  describe('refuses, with a non-zero exit and the reason, a binder', () => {
    let entries: Map<string, Buffer>;
    let manifest: Record<string, any>;
    const withManifest = (change: (m: Record<string, any>) => void) => {
      const copy = JSON.parse(JSON.stringify(manifest));
      change(copy);
      return replaced(entries, 'manifest.json', Buffer.from(JSON.stringify(copy)));
    };
    const expectRefused = async (tampered: Map<string, Buffer>, message: string | RegExp, args = ['--service-key', serviceKey]) => {
      const { status, output } = runCarriedVerifier(await zipOf(tampered), args);
      expect(output).toMatch(
        typeof message === 'string' ? new RegExp(`FAIL  .*${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) : message,
      );
      expect(output).toContain('Binder NOT verified.');
      expect(status).toBe(1);
    };

    beforeAll(async () => {
      const built = await binderZip();
      entries = readZip(built.zip);
      manifest = built.manifest;
    });

    it('whose file was changed in the zip', async () => {
      const evidencePath = manifest.evidence[0].path as string;
      await expectRefused(
        replaced(entries, evidencePath, Buffer.from('{"forged":true}'), { fixSums: false }),
        `SHA256SUMS: 1 file(s) missing or changed: ${evidencePath}`,
      );
      await expectRefused(
        replaced(entries, evidencePath, Buffer.from('{"forged":true}')),
        `evidence: 1 file(s) missing or not the manifest's hash: ${evidencePath}`,
      );
    });

    it('whose audit record bytes were changed', async () => {
      const seq = manifest.audit.proofs[0].seq;
      const tampered = withManifest((m) => {
        m.audit.proofs[0].leaf = m.audit.proofs[0].leaf.replace('"actor":"', '"actor":"x');
      });
      await expectRefused(tampered, `audit record ${seq}: its canonical bytes say something else than the record`);
    });

    it('whose inclusion proof was changed', async () => {
      const seq = manifest.audit.proofs[0].seq;
      const tampered = withManifest((m) => {
        m.audit.proofs[0].inclusion_proof[0] = Buffer.alloc(32, 7).toString('base64');
      });
      await expectRefused(tampered, `audit record ${seq}: inclusion proof does not lead to the checkpoint's root`);
    });

    it('whose checkpoint signature was changed, or that is checked against another key or none', async () => {
      const tampered = withManifest((m) => {
        const [text, signatures] = m.audit.checkpoint.note.split('\n\n');
        const [name, encoded] = signatures.trim().split(' ').slice(1);
        const bytes = Buffer.from(encoded, 'base64');
        bytes[bytes.length - 1] ^= 1;
        m.audit.checkpoint.note = `${text}\n\n\u2014 ${name} ${bytes.toString('base64')}\n`;
      });
      await expectRefused(tampered, 'checkpoint: the note is not signed by the pinned service key');
      const otherKey = createCheckpointSigner(
        parseSigningKey(require('node:crypto').generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' })),
      ).verifierKey;
      await expectRefused(entries, 'checkpoint: the note is not signed by the pinned service key', ['--service-key', otherKey]);
      await expectRefused(entries, /FAIL {2}checkpoint: no service key pinned/, []);
    });
  });
});
