import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import http from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { binaryBody } from '@platform/testing';
import yauzl from 'yauzl';
import { canonicalJson } from '@platform/canonical-json';
import { takeCheckpoint } from '../audit/audit-checkpoints';
import { createCheckpointSigner, parseSigningKey } from '../audit/checkpoint-signer';
import { createControl, createRun, people, startWorkflowService, type WorkflowService } from '../../testing/workflow-test-kit';

const PNG = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'),
  Buffer.from('0000000a49444154789c63000100000500010d0a2db40000000049454e44ae426082', 'hex'),
]);
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** Unpacks a zip (with yauzl) into a fresh directory; refuses entries that would leave it. */
function unzip(zip: Buffer): Promise<{ dir: string; names: string[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'binder-'));
  const names: string[] = [];
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, zipfile) => {
      if (error || !zipfile) return reject(error);
      zipfile.on('entry', (entry: yauzl.Entry) => {
        const target = path.resolve(dir, entry.fileName);
        if (!target.startsWith(dir + path.sep)) return reject(new Error(`entry escapes: ${entry.fileName}`));
        names.push(entry.fileName);
        zipfile.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            mkdirSync(path.dirname(target), { recursive: true });
            writeFileSync(target, Buffer.concat(chunks));
            zipfile.readEntry();
          });
        });
      });
      zipfile.on('end', () => resolve({ dir, names }));
      zipfile.on('error', reject);
      zipfile.readEntry();
    });
  });
}

describe('binders', () => {
  let kit: WorkflowService;
  let versionId: string;
  const dirs: string[] = [];

  beforeAll(async () => {
    kit = await startWorkflowService();
    versionId = (await createControl(kit, { key: 'BND-1', title: 'Backups <restored>', evidence_requirements: ['restore log'] }))
      .current_version.control_version_id;
  });
  afterAll(async () => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await kit?.stop();
  });

  const build = (runId: string, auth = kit.auth.writer) => kit.http().post(`/api/evidence/binders/run/${runId}`).set('Authorization', auth);
  const checkpoint = () =>
    takeCheckpoint(kit.db, createCheckpointSigner(parseSigningKey(kit.config.AUDIT_SIGNING_KEY as string)), kit.config.EVIDENCE_EXCHANGE);
  const download = (binder: { download_url: string }, auth = kit.auth.examiner) =>
    kit.http().get(new URL(binder.download_url).pathname).set('Authorization', auth).buffer(true).parse(binaryBody);

  /** A run with a note, a file, a correction and an out-of-period link. */
  async function runWithEvidence() {
    const run = await createRun(kit, versionId);
    const add = (body: object, auth = kit.auth.writer) =>
      kit.http().post(`/api/evidence/runs/${run.run_id}/evidence`).set('Authorization', auth).send(body).expect(201);
    const note = await add({
      kind: 'note',
      title: 'Restore <script>alert(1)</script> tested',
      collected_at: `${run.period_start}T09:00:00Z`,
    });
    const file = await kit
      .http()
      .post(`/api/evidence/runs/${run.run_id}/evidence`)
      .set('Authorization', kit.auth.contributor)
      .field('title', 'Screenshot')
      .attach('file', PNG, { filename: 'restore log.png', contentType: 'image/png' })
      .expect(201);
    const correction = await add({ kind: 'note', title: 'Restore tested twice', supersedes: note.body.evidence_id });
    const link = await add({
      kind: 'link',
      title: 'Old ticket',
      url: 'https://tickets.example.com/1',
      collected_at: '2020-01-01T00:00:00Z',
    });
    return { run, note: note.body, file: file.body, correction: correction.body, link: link.body };
  }

  describe('refusals', () => {
    it('building needs evidence:write, or evidence:approve and a decision of this run (401/403), and a known run (404)', async () => {
      const run = await createRun(kit, versionId);
      await kit.expectNoChange(async () => {
        await kit.http().post(`/api/evidence/binders/run/${run.run_id}`).expect(401);
        await build(run.run_id, kit.auth.examiner).expect(403);
        const undecided = await build(run.run_id, kit.auth.approver).expect(403);
        expect(undecided.body.detail).toBe('Only someone with evidence:write, or the approver who decided this run, may build its binder');
        await build('7a0f0c8e-3333-4c4f-9a43-5f8a4b0f0e11', kit.auth.approver).expect(404);
        await build('7a0f0c8e-3333-4c4f-9a43-5f8a4b0f0e11').expect(404);
        await build('run-1').expect(404);
      });
    });

    it('downloading needs audit:read (401/403) and a known binder (404)', async () => {
      const run = await createRun(kit, versionId);
      const binder = (await build(run.run_id).expect(201)).body;
      const zipPath = new URL(binder.download_url).pathname;
      await kit.http().get(zipPath).expect(401);
      await kit.http().get(zipPath).set('Authorization', kit.auth.writer).expect(403);
      await kit
        .http()
        .get('/api/evidence/binder-archives/7a0f0c8e-3333-4c4f-9a43-5f8a4b0f0e11')
        .set('Authorization', kit.auth.examiner)
        .expect(404);
      await kit
        .http()
        .get('/api/evidence/binders/7a0f0c8e-3333-4c4f-9a43-5f8a4b0f0e11')
        .set('Authorization', kit.auth.examiner)
        .expect(404);
    });
  });

  it('builds a draft binder of an open run: manifest with control version, run, every evidence item and the run’s audit records; audited and announced once', async () => {
    const { run, note, file, correction, link } = await runWithEvidence();
    await checkpoint(); // signed already, so building adds only its own record and event
    const response = await kit.expectOneChange(
      'evidence.binder_built',
      () => build(run.run_id).expect(201),
      (r) => r.body.binder_id,
    );
    const binder = response.body;
    expect(binder).toEqual({
      binder_id: expect.any(String),
      run_id: run.run_id,
      final: false,
      created_at: expect.any(String),
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      manifest: expect.any(Object),
      download_url: `http://binders.example/api/evidence/binder-archives/${binder.binder_id}`,
    });
    const { manifest } = binder;
    expect(manifest.control).toMatchObject({
      key: 'BND-1',
      version: 1,
      control_version_id: versionId,
      evidence_requirements: ['restore log'],
    });
    expect(manifest.run).toMatchObject({ run_id: run.run_id, status: 'open', created_by: people.writer });
    expect(
      manifest.evidence.map((e: { evidence_id: string; sha256: string; superseded_by: string | null; out_of_period: boolean }) => [
        e.evidence_id,
        e.sha256,
        e.superseded_by,
        e.out_of_period,
      ]),
    ).toEqual([
      [note.evidence_id, note.sha256, correction.evidence_id, false],
      [file.evidence_id, sha256(PNG), null, false],
      [correction.evidence_id, correction.sha256, null, false],
      [link.evidence_id, link.sha256, null, true],
    ]);
    expect(manifest.evidence[1].path).toBe(`evidence/${sha256(PNG)}-restore_log.png`);
    expect(manifest.decisions).toEqual([]);
    expect(manifest.audit.records.map((r: { action: string; entity_id: string }) => r.action)).toEqual([
      'evidence.run_created',
      'evidence.evidence_added',
      'evidence.evidence_added',
      'evidence.evidence_added',
      'evidence.evidence_added',
    ]);
    expect(manifest.audit.checkpoint.seq).toBeGreaterThanOrEqual(manifest.audit.records.at(-1).seq);
    const read = await kit.http().get(`/api/evidence/binders/${binder.binder_id}`).set('Authorization', kit.auth.examiner).expect(200);
    expect(read.body).toEqual(binder);
    await expect(kit.db('evidence_binders').where({ binder_id: binder.binder_id }).update({ final: true })).rejects.toThrow(/append-only/);
  });

  it('names text that would render or run when opened (HTML, SVG, XHTML, JS) .txt in the zip, drops bidi overrides from names, and serves the zip as a download never sniffed', async () => {
    const run = await createRun(kit, versionId);
    const upload = (fileName: string, text: string, contentType = 'text/html') =>
      kit
        .http()
        .post(`/api/evidence/runs/${run.run_id}/evidence`)
        .set('Authorization', kit.auth.contributor)
        .attach('file', Buffer.from(text), { filename: fileName, contentType })
        .expect(201);
    const disguised = await upload('invoice\u202Egnp.exe', 'pay to account 1');
    expect(disguised.body).toMatchObject({ title: 'invoicegnp.exe', content_type: 'text/plain' });
    expect((await kit.db('evidence_items').where({ evidence_id: disguised.body.evidence_id }).first()).file_name).toBe('invoicegnp.exe');
    await upload('report.html', '<html><script>alert(1)</script></html>');
    await upload('logo.svg', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>');
    await upload('page.XHTML', '<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(2)</script></html>');
    await upload('app.js', 'alert(3)', 'text/javascript');
    await upload('totals.csv', 'a,b\n1,2\n', 'text/csv');
    await upload('notes.txt', 'plain notes', 'text/plain');

    const binder = (await build(run.run_id).expect(201)).body;
    expect(binder.manifest.evidence.map((item: { path: string }) => item.path.replace(/^evidence\/[0-9a-f]{64}-/, ''))).toEqual([
      'invoicegnp.exe.txt',
      'report.html.txt',
      'logo.svg.txt',
      'page.XHTML.txt',
      'app.js.txt',
      'totals.csv',
      'notes.txt',
    ]);
    const response = await download(binder).expect(200);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="binder-${binder.binder_id}.zip"; filename*=UTF-8''binder-${binder.binder_id}.zip`,
    );
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    const { dir, names } = await unzip(response.body as Buffer);
    dirs.push(dir);
    expect(names.filter((name) => name.startsWith('evidence/'))).toEqual(
      binder.manifest.evidence.map((item: { path: string }) => item.path),
    );
  });

  it('is deterministic: two builds of the same run state have the same manifest bytes and sha256, and differ only in id and time', async () => {
    const { run } = await runWithEvidence();
    const first = (await build(run.run_id).expect(201)).body;
    const second = (await build(run.run_id).expect(201)).body;
    expect(second.binder_id).not.toBe(first.binder_id);
    expect(second.sha256).toBe(first.sha256);
    expect(second.manifest).toEqual(first.manifest);
    const stored = await kit
      .db('evidence_binders')
      .whereIn('binder_id', [first.binder_id, second.binder_id])
      .select('manifest_json', 'sha256');
    expect(stored[0].manifest_json).toBe(stored[1].manifest_json);
    expect(sha256(stored[0].manifest_json)).toBe(first.sha256);
    expect(canonicalJson(JSON.parse(stored[0].manifest_json))).toBe(stored[0].manifest_json);

    await kit
      .http()
      .post(`/api/evidence/runs/${run.run_id}/evidence`)
      .set('Authorization', kit.auth.writer)
      .send({ kind: 'note', title: 'One more' })
      .expect(201);
    const changed = (await build(run.run_id).expect(201)).body;
    expect(changed.sha256).not.toBe(first.sha256);
  });

  it('includes the first signed checkpoint covering the run’s records, which later checkpoints do not change', async () => {
    const { run } = await runWithEvidence();
    await checkpoint();
    const anchored = (await build(run.run_id).expect(201)).body;
    const records = anchored.manifest.audit.records;
    const cp = anchored.manifest.audit.checkpoint;
    expect(cp.seq).toBeGreaterThanOrEqual(records[records.length - 1].seq);
    expect(cp.message).toBe(JSON.stringify({ hash: cp.hash, seq: cp.seq }));
    expect(cp.public_key_pem).toMatch(/BEGIN PUBLIC KEY/);

    await createControl(kit);
    await checkpoint();
    const later = (await build(run.run_id).expect(201)).body;
    expect(later.sha256).toBe(anchored.sha256);
  });

  it('is final only once the run is approved, and then carries the decision', async () => {
    const { run } = await runWithEvidence();
    await kit.http().post(`/api/evidence/runs/${run.run_id}/submit`).set('Authorization', kit.auth.writer).expect(200);
    expect((await build(run.run_id).expect(201)).body.final).toBe(false);
    await kit
      .http()
      .post(`/api/evidence/runs/${run.run_id}/decision`)
      .set('Authorization', kit.auth.approver)
      .send({ decision: 'approved', rationale: 'Restores verified' })
      .expect(201);
    // The approver who decided it builds the final binder themself; another approver may not.
    await build(run.run_id, kit.auth.contributorApprover).expect(403);
    const binder = (await build(run.run_id, kit.auth.approver).expect(201)).body;
    expect(binder.final).toBe(true);
    expect((await kit.db('evidence_binders').where({ binder_id: binder.binder_id }).first()).created_by).toBe(people.approver);
    expect(binder.manifest.run.status).toBe('approved');
    expect(binder.manifest.decisions).toEqual([
      expect.objectContaining({ decision: 'approved', rationale: 'Restores verified', decided_by: people.approver }),
    ]);
    expect(binder.manifest.audit.records.map((r: { action: string }) => r.action).slice(-2)).toEqual([
      'evidence.run_submitted',
      'evidence.run_decided',
    ]);

    const rejectedRun = await createRun(kit, versionId);
    await kit.http().post(`/api/evidence/runs/${rejectedRun.run_id}/submit`).set('Authorization', kit.auth.writer).expect(200);
    await kit
      .http()
      .post(`/api/evidence/runs/${rejectedRun.run_id}/decision`)
      .set('Authorization', kit.auth.approver)
      .send({ decision: 'rejected', rationale: 'No evidence' })
      .expect(201);
    expect((await build(rejectedRun.run_id).expect(201)).body.final).toBe(false);
  });

  it('downloads as a streamed zip that unpacks, passes sha256sum -c SHA256SUMS and verifies its checkpoint with openssl', async () => {
    const { run, file, note } = await runWithEvidence();
    await kit.http().post(`/api/evidence/runs/${run.run_id}/submit`).set('Authorization', kit.auth.writer).expect(200);
    await kit
      .http()
      .post(`/api/evidence/runs/${run.run_id}/decision`)
      .set('Authorization', kit.auth.approver)
      .send({ decision: 'approved', rationale: 'ok' })
      .expect(201);
    await checkpoint();
    const binder = (await build(run.run_id).expect(201)).body;

    const response = await download(binder).expect(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toContain(`binder-${binder.binder_id}.zip`);
    const { dir, names } = await unzip(response.body as Buffer);
    dirs.push(dir);
    expect(names).toEqual(
      expect.arrayContaining([
        'manifest.json',
        'audit.jsonl',
        'index.html',
        'SHA256SUMS',
        'VERIFY.md',
        'checkpoint-message.bin',
        'checkpoint.sig',
        'audit-public-key.pem',
      ]),
    );
    expect(names.filter((name) => name.startsWith('evidence/'))).toHaveLength(binder.manifest.evidence.length);

    const check = execFileSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: dir, encoding: 'utf8' });
    expect(check.trim().split('\n')).toHaveLength(names.length - 1);
    expect(check).not.toMatch(/FAILED/);
    expect(sha256(readFileSync(path.join(dir, 'manifest.json')))).toBe(binder.sha256);
    expect(readFileSync(path.join(dir, 'evidence', `${file.sha256}-restore_log.png`)).equals(PNG)).toBe(true);
    const noteFile = readdirSync(path.join(dir, 'evidence')).find((name) => name.startsWith(note.sha256)) as string;
    expect(sha256(readFileSync(path.join(dir, 'evidence', noteFile)))).toBe(note.sha256);
    const audit = readFileSync(path.join(dir, 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(audit).toEqual(binder.manifest.audit.records);

    const html = readFileSync(path.join(dir, 'index.html'), 'utf8');
    expect(html).toContain('Restore &lt;script&gt;alert(1)&lt;/script&gt; tested');
    expect(html).not.toContain('<script>');
    expect(html).toContain('Backups &lt;restored&gt;');
    const verifyMd = readFileSync(path.join(dir, 'VERIFY.md'), 'utf8');
    expect(verifyMd).toContain('sha256sum -c SHA256SUMS');
    expect(verifyMd).toContain(binder.sha256);
    expect(verifyMd).toContain(
      'openssl pkeyutl -verify -pubin -inkey audit-public-key.pem -rawin -in checkpoint-message.bin -sigfile checkpoint.sig',
    );

    const verified = execFileSync(
      'openssl',
      [
        'pkeyutl',
        '-verify',
        '-pubin',
        '-inkey',
        'audit-public-key.pem',
        '-rawin',
        '-in',
        'checkpoint-message.bin',
        '-sigfile',
        'checkpoint.sig',
      ],
      {
        cwd: dir,
        encoding: 'utf8',
      },
    );
    expect(verified).toMatch(/Signature Verified Successfully/);
    writeFileSync(path.join(dir, 'checkpoint-message.bin'), '{"hash":"0","seq":1}');
    expect(() =>
      execFileSync(
        'openssl',
        [
          'pkeyutl',
          '-verify',
          '-pubin',
          '-inkey',
          'audit-public-key.pem',
          '-rawin',
          '-in',
          'checkpoint-message.bin',
          '-sigfile',
          'checkpoint.sig',
        ],
        { cwd: dir, stdio: 'pipe' },
      ),
    ).toThrow();
    writeFileSync(path.join(dir, 'evidence', `${file.sha256}-restore_log.png`), Buffer.concat([PNG, Buffer.from('x')]));
    expect(() => execFileSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: dir, stdio: 'pipe' })).toThrow();
  });

  it('signs a checkpoint covering a run that none covered yet when its binder is built, in the same transaction', async () => {
    const run = await createRun(kit, versionId);
    await kit
      .http()
      .post(`/api/evidence/runs/${run.run_id}/evidence`)
      .set('Authorization', kit.auth.writer)
      .send({ kind: 'record', title: 'Export', data: { rows: 2 } })
      .expect(201);
    const [{ count: checkpointsBefore }] = await kit.db('audit_checkpoints').count({ count: '*' });
    const binder = (await build(run.run_id).expect(201)).body;
    const [{ count: checkpointsAfter }] = await kit.db('audit_checkpoints').count({ count: '*' });
    expect(Number(checkpointsAfter) - Number(checkpointsBefore)).toBe(1);
    expect(binder.manifest.audit.checkpoint.seq).toBeGreaterThanOrEqual(binder.manifest.audit.records.at(-1).seq);
    const { dir, names } = await unzip((await download(binder).expect(200)).body as Buffer);
    dirs.push(dir);
    expect(names).toContain('checkpoint.sig');
    execFileSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: dir, stdio: 'pipe' });
    expect(readFileSync(path.join(dir, 'VERIFY.md'), 'utf8')).not.toMatch(/No signed checkpoint covered/);
    // A second binder of the same run needs no new signature.
    await build(run.run_id).expect(201);
    const [{ count: checkpointsAtLast }] = await kit.db('audit_checkpoints').count({ count: '*' });
    expect(Number(checkpointsAtLast)).toBe(Number(checkpointsAfter));
  });

  it('streams a run larger than one page of every part: every item, record and index row once, in order', async () => {
    const run = await createRun(kit, versionId);
    const items = 520; // more than one page of evidence (500) and of audit records (500)
    for (let start = 0; start < items; start += 20) {
      await Promise.all(
        Array.from({ length: Math.min(20, items - start) }, (_, i) =>
          kit
            .http()
            .post(`/api/evidence/runs/${run.run_id}/evidence`)
            .set('Authorization', kit.auth.writer)
            .send({ kind: 'record', title: `Export ${start + i}`, data: { row: start + i } })
            .expect(201),
        ),
      );
    }
    const binder = (await build(run.run_id).expect(201)).body;
    expect(binder.manifest.evidence).toHaveLength(items);
    const chunks = await kit.db('evidence_binder_manifest_chunks').where({ binder_id: binder.binder_id }).orderBy('n').pluck('chunk');
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('')).toBe(
      (await kit.db('evidence_binders').where({ binder_id: binder.binder_id }).first('manifest_json')).manifest_json,
    );

    // A reader that leaves after the first bytes stops the zip; the next download is whole.
    const zipUrl = new URL(new URL(binder.download_url).pathname, kit.service.url);
    await new Promise<void>((resolve, reject) => {
      const req = http.get(zipUrl, { headers: { Authorization: kit.auth.examiner } }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (error: Error & { code?: string }) => (error.code === 'ECONNRESET' ? resolve() : reject(error)));
    });
    const { dir, names } = await unzip((await download(binder).expect(200)).body as Buffer);
    dirs.push(dir);
    expect(names.filter((name) => name.startsWith('evidence/'))).toEqual(
      binder.manifest.evidence.map((item: { path: string }) => item.path),
    );
    execFileSync('sha256sum', ['-c', '--quiet', 'SHA256SUMS'], { cwd: dir, stdio: 'pipe' });
    expect(readFileSync(path.join(dir, 'manifest.json'), 'utf8')).toBe(canonicalJson(binder.manifest));
    const audit = readFileSync(path.join(dir, 'audit.jsonl'), 'utf8').trim().split('\n');
    expect(audit).toEqual(binder.manifest.audit.records.map((record: object) => canonicalJson(record)));
    expect(audit).toHaveLength(items + 1);
    const html = readFileSync(path.join(dir, 'index.html'), 'utf8');
    expect(html).toContain(`Evidence (${items})`);
    expect(html.match(/<tr><td>Export \d+<\/td>/g)).toHaveLength(items);
    expect(html).toContain(`${items + 1} audit records in audit.jsonl`);
  }, 60000);

  it('documents every binder operation in the OpenAPI document', async () => {
    const doc = await kit.http().get('/openapi.json').expect(200);
    expect(doc.body.paths['/binders/run/{id}'].post.security).toEqual([
      { bearerJwt: ['evidence:write'] },
      { bearerJwt: ['evidence:approve'] },
    ]);
    expect(doc.body.paths['/binders/{id}'].get).toBeDefined();
    expect(doc.body.paths['/binder-archives/{id}'].get.security).toEqual([{ bearerJwt: ['audit:read'] }]);
    expect(doc.body.paths['/binder-archives/{id}'].get.responses['200'].content['application/zip']).toBeDefined();
  });
});
