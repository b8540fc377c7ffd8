import { randomBytes } from 'node:crypto';
import { EICAR, eventually, startTestClamd, type TestClamd } from '@platform/testing';
import { createControl, createRun, startWorkflowService, type WorkflowService } from '../../testing/workflow-test-kit';

/** A PDF (evidence is typed by its bytes); `infected` puts the EICAR test string inside it. */
const pdf = (infected = false) =>
  Buffer.from(`%PDF-1.4\n% ${randomBytes(8).toString('hex')}\n${infected ? `${EICAR}\n` : ''}trailer\n<< >>\n%%EOF\n`);

async function addFile(kit: WorkflowService, runId: string, bytes: Buffer) {
  const response = await kit
    .http()
    .post(`/api/evidence/runs/${runId}/evidence`)
    .set('Authorization', kit.auth.writer)
    .attach('file', bytes, 'log.pdf')
    .expect(201);
  return response.body;
}

const build = (kit: WorkflowService, runId: string) =>
  kit.http().post(`/api/evidence/binders/run/${runId}`).set('Authorization', kit.auth.writer);

describe('evidence files are scanned for viruses by clamd', () => {
  let clamd: TestClamd;
  let kit: WorkflowService;
  let versionId: string;

  beforeAll(async () => {
    clamd = await startTestClamd();
    kit = await startWorkflowService({ CLAMD_URL: clamd.url, SCAN_RETRY_INTERVAL_MS: '200' });
    versionId = (await createControl(kit)).current_version.control_version_id;
  });
  afterAll(async () => {
    await kit?.stop();
    await clamd?.close();
  });

  it('quarantines an infected file: recorded in the audit log, and no binder of its run is built', async () => {
    const run = await createRun(kit, versionId);
    const evidence = await kit.expectOneChange(
      'evidence.evidence_added',
      () => addFile(kit, run.run_id, pdf(true)),
      () => run.run_id,
    );
    expect(evidence.scan_status).toBe('infected');
    const [record] = await kit.db('audit_log').where({ action: 'evidence.evidence_added', entity_id: run.run_id });
    expect(record.data).toMatchObject({
      evidence_id: evidence.evidence_id,
      scan_status: 'infected',
      scan_signature: expect.stringContaining('EICAR'),
    });

    const refused = await kit.expectNoChange(() => build(kit, run.run_id));
    expect(refused.status).toBe(409);
    expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(refused.body.files).toEqual([{ evidence_id: evidence.evidence_id, scan_status: 'infected' }]);
  });

  it('files a clean file as clean, and its run builds a binder', async () => {
    const run = await createRun(kit, versionId);
    expect((await addFile(kit, run.run_id, pdf())).scan_status).toBe('clean');
    await build(kit, run.run_id).expect(201);
  });

  it('with clamd down leaves files pending (no binder), then the background rescan decides them once clamd is back', async () => {
    const cleanRun = await createRun(kit, versionId);
    const infectedRun = await createRun(kit, versionId);
    await clamd.stop();
    let clean;
    let infected;
    try {
      clean = await addFile(kit, cleanRun.run_id, pdf());
      infected = await addFile(kit, infectedRun.run_id, pdf(true));
      expect([clean.scan_status, infected.scan_status]).toEqual(['pending', 'pending']);
      expect((await build(kit, cleanRun.run_id)).status).toBe(409);
    } finally {
      await clamd.start();
    }
    const statusOf = async (evidenceId: string) =>
      (await kit.db('evidence_file_scans').where({ evidence_id: evidenceId }).first()).scan_status;
    await eventually(async () => (await statusOf(clean.evidence_id)) !== 'pending' && (await statusOf(infected.evidence_id)) !== 'pending');
    expect([await statusOf(clean.evidence_id), await statusOf(infected.evidence_id)]).toEqual(['clean', 'infected']);
    const scanned = await kit
      .db('audit_log')
      .where({ action: 'evidence.file_scanned' })
      .whereIn('entity_id', [cleanRun.run_id, infectedRun.run_id]);
    expect(scanned.map((record) => record.data.scan_status).sort()).toEqual(['clean', 'infected']);
    await build(kit, cleanRun.run_id).expect(201);
    expect((await build(kit, infectedRun.run_id)).status).toBe(409);
  });
});

describe('evidence files without a configured scanner (the embedded default)', () => {
  let kit: WorkflowService;

  beforeAll(async () => {
    kit = await startWorkflowService();
  });
  afterAll(async () => {
    await kit?.stop();
  });

  it('are marked not_scanned and go into binders', async () => {
    const run = await createRun(kit, (await createControl(kit)).current_version.control_version_id);
    expect((await addFile(kit, run.run_id, pdf(true))).scan_status).toBe('not_scanned');
    await build(kit, run.run_id).expect(201);
  });
});
