import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { STORAGE_KINDS, storageSettingsPerKind } from '@platform/files/src/testing/s3-test-server';
import { binaryBody } from '@platform/testing';
import { takeCheckpoint } from '../audit/audit-checkpoints';
import { createCheckpointSigner, parseSigningKey } from '../audit/checkpoint-signer';
import { createControl, createRun, people, startWorkflowService, type WorkflowService } from '../../testing/workflow-test-kit';

const PDF = (text: string) => Buffer.from(`%PDF-1.4\n% ${text}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const REASON = 'Holds a claimant’s medical details';

const storageSettings = storageSettingsPerKind();

describe.each(STORAGE_KINDS)('redacting an evidence file (%s storage)', (storageKind) => {
  let kit: WorkflowService;
  let versionId: string;
  let serviceKey: string;
  const dirs: string[] = [];

  beforeAll(async () => {
    kit = await startWorkflowService(storageSettings(storageKind));
    versionId = (await createControl(kit)).current_version.control_version_id;
    serviceKey = createCheckpointSigner(parseSigningKey(kit.config.AUDIT_SIGNING_KEY as string)).verifierKey;
  });
  afterAll(async () => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await kit?.stop();
  });

  const upload = async (runId: string, bytes: Buffer, filename = 'access-review.pdf') =>
    (
      await kit
        .http()
        .post(`/api/evidence/runs/${runId}/evidence`)
        .set('Authorization', kit.auth.writer)
        .attach('file', bytes, { filename, contentType: 'application/pdf' })
        .expect(201)
    ).body as { evidence_id: string; sha256: string };
  const redact = (
    evidenceId: string,
    bytes: Buffer,
    fields: Record<string, string> = { reason: REASON },
    auth = kit.auth.privacyOfficer,
  ) => {
    let req = kit.http().post(`/api/evidence/evidence/${evidenceId}/redaction`).set('Authorization', auth);
    for (const [name, value] of Object.entries(fields)) req = req.field(name, value);
    return req.attach('file', bytes, { filename: 'access-review-redacted.pdf', contentType: 'application/pdf' });
  };
  const content = (evidenceId: string) =>
    kit.http().get(`/api/evidence/evidence/${evidenceId}/content`).set('Authorization', kit.auth.examiner).buffer(true).parse(binaryBody);
  const storedFiles = async () => (await kit.files.list()).map((name) => path.basename(name)).filter((name) => /^[0-9a-f]{64}$/.test(name));
  const verifyLog = async () =>
    (await kit.http().get('/api/evidence/audit/verify').set('Authorization', kit.auth.examiner).expect(200)).body;
  const checkpoint = () =>
    takeCheckpoint(kit.db, createCheckpointSigner(parseSigningKey(kit.config.AUDIT_SIGNING_KEY as string)), kit.config.EVIDENCE_EXCHANGE);
  const buildBinder = async (runId: string) =>
    (await kit.http().post(`/api/evidence/binders/run/${runId}`).set('Authorization', kit.auth.writer).expect(201)).body;
  const download = (binder: { download_url: string }) =>
    kit.http().get(new URL(binder.download_url).pathname).set('Authorization', kit.auth.examiner).buffer(true).parse(binaryBody);

  /** The offline verifier the zip carries, run from a bare directory. */
  function verifyOffline(zip: Buffer): { status: number | null; output: string } {
    const dir = mkdtempSync(path.join(tmpdir(), 'examiner-'));
    dirs.push(dir);
    writeFileSync(path.join(dir, 'verify.mjs'), require('../binders/verifier/zip-reader').readZip(zip).get('verify.mjs'));
    writeFileSync(path.join(dir, 'binder.zip'), zip);
    const result = spawnSync(process.execPath, ['verify.mjs', 'binder.zip', '--service-key', serviceKey], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH },
    });
    return { status: result.status, output: result.stdout + result.stderr };
  }

  /** A refused request leaves no row, audit record, event, stored or temporary file, and destroys nothing. */
  const expectNothingLeft = async <T>(refused: () => Promise<T>) => {
    const files = await storedFiles();
    const [{ count: items }] = await kit.db('evidence_items').count({ count: '*' });
    const [{ count: redactions }] = await kit.db('evidence_redactions').count({ count: '*' });
    const result = await kit.expectNoChange(refused);
    expect(await storedFiles()).toEqual(files);
    expect((await kit.files.list()).filter((name) => name.includes('.incoming'))).toEqual([]);
    expect(await kit.db('evidence_items').count({ count: '*' })).toEqual([{ count: items }]);
    expect(await kit.db('evidence_redactions').count({ count: '*' })).toEqual([{ count: redactions }]);
    return result;
  };

  it("supersedes the item by its redacted version, destroys the original's bytes, keeps its hash in a log that still verifies", async () => {
    const run = await createRun(kit, versionId);
    const original = await upload(run.run_id, PDF('claimant: Jane Roe, diagnosis'));
    const redactedBytes = PDF('claimant: [redacted]');

    const before = await kit.counts();
    const response = await redact(original.evidence_id, redactedBytes).expect(201);
    // Two facts, each one audit record and one event: the redacted version added, the original redacted.
    expect(await kit.counts()).toEqual({ audit: before.audit + 2, outbox: before.outbox + 2 });
    await kit.events.waitFor((received) =>
      ['evidence.evidence_added', 'evidence.evidence_redacted'].every((type) =>
        received.some((event) => event.routingKey === type && event.body.subject === run.run_id),
      ),
    );
    expect(response.body).toEqual({
      redacted: {
        evidence_id: original.evidence_id,
        sha256: original.sha256,
        reason: REASON,
        redacted_by: people.privacyOfficer,
        redacted_at: expect.any(String),
      },
      evidence: expect.objectContaining({
        supersedes: original.evidence_id,
        sha256: sha256(redactedBytes),
        kind: 'file',
        scan_status: 'not_scanned',
      }),
    });
    const replacement = response.body.evidence.evidence_id as string;

    expect(await kit.files.has(original.sha256)).toBe(false);
    await content(original.evidence_id)
      .expect(410)
      .expect('Content-Type', /application\/problem\+json/);
    expect((await content(replacement).expect(200)).body).toEqual(redactedBytes);

    const [record] = await kit.db('audit_log').where({ action: 'evidence.evidence_redacted' }).orderBy('seq', 'desc').limit(1);
    expect(record.data).toEqual({
      run_id: run.run_id,
      evidence_id: original.evidence_id,
      sha256: original.sha256,
      size_bytes: expect.any(Number),
      superseded_by: replacement,
    });
    expect(JSON.stringify(record.data)).not.toContain('medical');
    expect(
      await kit.db('audit_log').where({ action: 'evidence.evidence_added' }).whereRaw("data ->> 'sha256' = ?", [original.sha256]),
    ).toHaveLength(1);
    expect(await verifyLog()).toMatchObject({ valid: true });

    const listed = (await kit.http().get(`/api/evidence/runs/${run.run_id}`).set('Authorization', kit.auth.examiner).expect(200)).body;
    expect(listed.evidence).toEqual([
      expect.objectContaining({
        evidence_id: original.evidence_id,
        sha256: original.sha256,
        superseded_by: replacement,
        redaction: { reason: REASON, redacted_by: people.privacyOfficer, redacted_at: response.body.redacted.redacted_at },
      }),
      expect.not.objectContaining({ redaction: expect.anything() }),
    ]);
  });

  it('a binder built before still verifies offline (no longer downloadable: 410); one built after names the redacted item and verifies', async () => {
    const run = await createRun(kit, versionId);
    const original = await upload(run.run_id, PDF('claimant: John Doe, injuries'));
    await checkpoint();
    const before = await buildBinder(run.run_id);
    const zipBefore = (await download(before).expect(200)).body as Buffer;

    const replacement = (await redact(original.evidence_id, PDF('claimant: [redacted], injuries')).expect(201)).body.evidence.evidence_id;

    const earlier = verifyOffline(zipBefore);
    expect(earlier.output).toContain('Binder verified.');
    expect(earlier.status).toBe(0);
    await download(before)
      .expect(410)
      .expect('Content-Type', /application\/problem\+json/);

    await checkpoint();
    const after = await buildBinder(run.run_id);
    const named = after.manifest.evidence.find((item: { evidence_id: string }) => item.evidence_id === original.evidence_id);
    expect(named).toMatchObject({
      sha256: original.sha256,
      superseded_by: replacement,
      redaction: { reason: REASON, redacted_by: people.privacyOfficer },
    });
    expect(after.manifest.evidence.find((item: { evidence_id: string }) => item.evidence_id === replacement)).toMatchObject({
      supersedes: original.evidence_id,
    });
    expect(after.manifest.audit.records.map((r: { action: string }) => r.action)).toContain('evidence.evidence_redacted');
    const zipAfter = (await download(after).expect(200)).body as Buffer;
    expect(
      [...require('../binders/verifier/zip-reader').readZip(zipAfter).keys()].some((name: string) => name.includes(original.sha256)),
    ).toBe(false);
    const later = verifyOffline(zipAfter);
    expect(later.output).toContain('(1 redacted, no file)');
    expect(later.output).toContain('Binder verified.');
    expect(later.status).toBe(0);
  });

  it('keeps bytes another item that is not redacted still holds', async () => {
    const bytes = PDF('shared bytes');
    const first = await upload((await createRun(kit, versionId)).run_id, bytes);
    await upload((await createRun(kit, versionId)).run_id, bytes);
    await redact(first.evidence_id, PDF('shared bytes, redacted')).expect(201);
    expect(await kit.files.has(first.sha256)).toBe(true);
  });

  it('two redactions of one item at once: one is stored, the other is a 409 and leaves nothing', async () => {
    const original = await upload((await createRun(kit, versionId)).run_id, PDF('raced'));
    const statuses = (
      await Promise.all([redact(original.evidence_id, PDF('raced one')), redact(original.evidence_id, PDF('raced two'))])
    ).map((response) => response.status);
    expect(statuses.sort()).toEqual([201, 409]);
    expect(await kit.db('evidence_redactions').where({ evidence_id: original.evidence_id })).toHaveLength(1);
    expect(await kit.db('evidence_items').where({ supersedes: original.evidence_id })).toHaveLength(1);
    const stored = await storedFiles();
    expect(stored).not.toContain(sha256(PDF('raced')));
    expect([sha256(PDF('raced one')), sha256(PDF('raced two'))].filter((hash) => stored.includes(hash))).toHaveLength(1);
  });

  describe('refusals (problem+json; nothing stored, destroyed, recorded or published)', () => {
    let runId: string;
    let file: { evidence_id: string; sha256: string };
    beforeAll(async () => {
      runId = (await createRun(kit, versionId)).run_id;
      file = await upload(runId, PDF('refusals'));
    });
    afterEach(async () => {
      expect(await kit.files.has(file.sha256)).toBe(true);
    });

    it('401 without credentials, 403 without privacy:manage, 404 for unknown evidence', async () => {
      await expectNothingLeft(async () => {
        await kit.http().post(`/api/evidence/evidence/${file.evidence_id}/redaction`).field('reason', REASON).expect(401);
        await redact(file.evidence_id, PDF('x'), { reason: REASON }, kit.auth.writer).expect(403);
        await redact(file.evidence_id, PDF('x'), { reason: REASON }, kit.auth.approver).expect(403);
        await redact('5e0cf5d2-1111-4c4f-9a43-5f8a4b0f0e11', PDF('x'))
          .expect(404)
          .expect('Content-Type', /application\/problem\+json/);
        await redact('nope', PDF('x')).expect(404);
      });
    });

    it('400 without a reason or with an unknown field, 415 for JSON or bytes of no accepted type, 422 for identical bytes or a note', async () => {
      const note = (
        await kit
          .http()
          .post(`/api/evidence/runs/${runId}/evidence`)
          .set('Authorization', kit.auth.writer)
          .send({ kind: 'note', title: 'n' })
          .expect(201)
      ).body;
      await expectNothingLeft(async () => {
        await redact(file.evidence_id, PDF('x'), {})
          .expect(400)
          .expect('Content-Type', /application\/problem\+json/);
        await redact(file.evidence_id, PDF('x'), { reason: '' }).expect(400);
        await redact(file.evidence_id, PDF('x'), { reason: REASON, supersedes: note.evidence_id }).expect(400);
        await kit
          .http()
          .post(`/api/evidence/evidence/${file.evidence_id}/redaction`)
          .set('Authorization', kit.auth.privacyOfficer)
          .send({ reason: REASON })
          .expect(415);
        await redact(file.evidence_id, Buffer.from([0x80, 0x81, 0xc3, 0x28, 0xfe])).expect(415);
        await redact(file.evidence_id, PDF('refusals')).expect(422);
        await redact(note.evidence_id, PDF('x')).expect(422);
      });
    });

    it('409 for an item already redacted, and for one already corrected', async () => {
      const redacted = await upload(runId, PDF('redacted once'));
      const replacement = (await redact(redacted.evidence_id, PDF('redacted once, version 2')).expect(201)).body.evidence.evidence_id;
      const corrected = await upload(runId, PDF('corrected'));
      await kit
        .http()
        .post(`/api/evidence/runs/${runId}/evidence`)
        .set('Authorization', kit.auth.writer)
        .field('supersedes', corrected.evidence_id)
        .attach('file', PDF('corrected, v2'), { filename: 'v2.pdf', contentType: 'application/pdf' })
        .expect(201);
      await expectNothingLeft(async () => {
        const again = await redact(redacted.evidence_id, PDF('redacted twice')).expect(409);
        expect(again.body).toMatchObject({ status: 409, superseded_by: replacement });
        expect(again.body.detail).toContain('already redacted');
        await redact(corrected.evidence_id, PDF('x')).expect(409);
      });
    });
  });
});
