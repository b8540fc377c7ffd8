import { createHash, randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { compile } from '@platform/http';
import { bearer, binaryBody, eventually, fnolBody } from '@platform/testing';
import { fileClaim, startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { startSmtpTestServer } from '../../testing/smtp-test-server';
import { as } from '../../testing/workflow-fixtures';
import { exportStorage } from './export-storage';
import { claimantExportSchema, ownExportSchema } from './exports-schemas';
import { zipEntries } from '../../testing/zip-entries';

const BASE = 'https://claims.example.test';
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64, 1)]);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const officer = () => bearer('privacy:manage', 'privacy-pat');

/** A claimant of their own (unique email and phone), so no other test's claims join theirs. */
function claimantValues() {
  const tag = randomBytes(4).toString('hex');
  const digits = String(parseInt(tag, 16) % 10_000_000).padStart(7, '0');
  return {
    claimant: { name: `Ana Export ${tag}`, email: `ana.export.${tag}@example.com`, phone: `+1415${digits}` },
    description: `Rear-ended at the light by the bakery ${tag}`,
  };
}

/** Checks the archive against its own manifest and SHA256SUMS, and returns its entries by path. */
function verifiedEntries(zip: Map<string, Buffer>) {
  const manifest = JSON.parse(zip.get('manifest.json')!.toString('utf8'));
  const sums = zip
    .get('SHA256SUMS')!
    .toString('utf8')
    .trim()
    .split('\n')
    .map((line) => line.split('  '));
  const stored = [...zip.keys()].filter((name) => name !== 'SHA256SUMS').sort();
  expect(sums.map(([, name]) => name).sort()).toEqual(stored);
  for (const [sum, name] of sums) expect({ name, sum }).toEqual({ name, sum: sha256(zip.get(name)!) });
  const listed = manifest.entries.map((entry: { path: string }) => entry.path).sort();
  expect(listed).toEqual(stored.filter((name) => name !== 'manifest.json'));
  for (const entry of manifest.entries)
    expect(entry).toEqual({ path: entry.path, sha256: sha256(zip.get(entry.path)!), size_bytes: zip.get(entry.path)!.length });
  return { manifest, json: (name: string) => JSON.parse(zip.get(name)!.toString('utf8')) };
}

describe('subject-access exports', () => {
  let t: ClaimsTestService;
  let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    t = await startClaimsTestService({ SMTP_URL: smtp.url, PUBLIC_BASE_URL: BASE, EXPORT_BUILD_INTERVAL_MS: '200' });
  });
  afterAll(async () => {
    await t?.stop();
    await smtp?.close();
  });

  async function fileClaimOf(values = claimantValues(), overrides: Record<string, unknown> = {}) {
    const claim = await fileClaim(t.url, {
      claimant: values.claimant,
      loss: { ...(fnolBody().loss as object), description: values.description },
      ...overrides,
    });
    const { claimant_id: claimantId } = await t.db('claims').where({ id: claim.claim_id }).first('claimant_id');
    return { ...claim, claimantId: claimantId as string, values };
  }

  const requestExport = async (claimantId: string) =>
    request(t.url)
      .post(`/api/claims/claimants/${claimantId}/exports`)
      .set('Authorization', await officer());
  const readyExport = async (location: string) =>
    eventually(async () => {
      const response = await request(t.url)
        .get(location)
        .set('Authorization', await officer())
        .expect(200);
      return response.body.status === 'ready' && response.body;
    }, 20000);

  it('builds everything held about the claimant in the background: progress, then a zip whose manifest and sums match every entry', async () => {
    const values = claimantValues();
    const first = await fileClaimOf(values);
    const second = await fileClaimOf(values, { preferred_channel: 'sms' });
    expect(second.claimantId).toBe(first.claimantId);
    await request(t.url)
      .post(`/api/claims/public/claims/${first.claim_id}/attachments`)
      .set('Authorization', `Bearer ${first.access_token}`)
      .field('document_type', 'photos_of_damage')
      .attach('file', PNG, { filename: 'my bumper?.png', contentType: 'image/png' })
      .expect(201);
    const noteText = `Claimant sounded upset ${randomBytes(3).toString('hex')}`;
    await request(t.url)
      .post(`/api/claims/claims/${first.claim_id}/notes`)
      .set('Authorization', await as.writer())
      .send({ body: noteText, topic: 'call' })
      .expect(201);

    const queued = await requestExport(first.claimantId);
    expect(queued.status).toBe(202);
    expect(compile(claimantExportSchema)(queued.body)).toBe(true);
    expect(queued.body).toMatchObject({
      claimant_id: first.claimantId,
      requested_by: 'privacy-pat',
      include_internal_notes: false,
      archive: null,
    });
    expect(queued.headers.location).toBe(queued.body.links.self);

    const ready = await readyExport(queued.headers.location);
    expect(compile(claimantExportSchema)(ready)).toBe(true);
    // two claims, each one part for its records, plus the one attachment
    expect(ready.progress).toEqual({ done: 3, total: 3 });
    expect(ready.links.archive).toBe(`${queued.body.links.self}/archive`);

    const purpose = 'Subject access request DSR-77';
    const download = await request(t.url)
      .get(ready.links.archive)
      .set('Authorization', await officer())
      .set('Access-Purpose', purpose)
      .buffer(true)
      .parse(binaryBody)
      .expect(200);
    expect(download.headers['content-type']).toBe('application/zip');
    expect(sha256(download.body)).toBe(ready.archive.sha256);
    expect(download.body.length).toBe(ready.archive.size_bytes);
    const { manifest, json } = verifiedEntries(await zipEntries(download.body));
    expect(manifest).toMatchObject({
      export_id: ready.export_id,
      claimant_id: first.claimantId,
      include_internal_notes: false,
      claims: [
        { claim_id: first.claim_id, claim_number: first.claim_number },
        { claim_id: second.claim_id, claim_number: second.claim_number },
      ],
    });

    // opened, as the claimant gave them (the rows hold them sealed)
    const folder = `claims/${first.claim_number}`;
    const claim = json(`${folder}/claim.json`);
    expect(claim.claimant).toEqual(values.claimant);
    expect(claim.loss.description).toBe(values.description);
    expect(claim).not.toHaveProperty('access_token_hash');
    expect((await t.db('claims').where({ id: first.claim_id }).first('claimant_email')).claimant_email).toMatch(/^pv1:/);
    const updates = json(`${folder}/status-updates.json`);
    expect(updates.length).toBeGreaterThan(0);
    const sealedUpdate = await t.db('status_updates').where({ update_id: updates[0].update_id }).first('what_happened');
    expect(sealedUpdate.what_happened).toMatch(/^pv1:/);
    expect(updates[0].update.what_happened).not.toMatch(/^pv1:/);
    expect(updates[0].update.what_happened).toContain(first.claim_number);
    const deliveries = json(`${folder}/deliveries.json`);
    expect(deliveries.map((delivery: { update_id: string }) => delivery.update_id)).toContain(updates[0].update_id);

    const [attachment] = json(`${folder}/attachments.json`);
    expect(attachment.file).toBe(`${folder}/attachments/${attachment.attachment_id}-my_bumper_.png`);
    expect(manifest.entries).toContainEqual({ path: attachment.file, sha256: sha256(PNG), size_bytes: PNG.length });

    const [note] = json(`${folder}/notes.json`);
    expect(note).toEqual({
      note_id: expect.any(String),
      author: 'adjuster-ann',
      topic: 'call',
      corrects: null,
      created_at: expect.any(String),
    });
    expect(download.body.includes(Buffer.from(noteText))).toBe(false);

    // the download is in both claims' access logs, with the purpose
    const logged = await t
      .db('claim_access_log')
      .where({ kind: 'export' })
      .whereIn('claim_id', [first.claim_id, second.claim_id])
      .select('claim_id', 'actor', 'purpose');
    expect(logged.sort((a, b) => a.claim_id.localeCompare(b.claim_id))).toEqual(
      [first.claim_id, second.claim_id].sort().map((claim_id) => ({ claim_id, actor: 'privacy-pat', purpose })),
    );
  });

  it('refuses with problem+json and leaves nothing: 403 without privacy:manage, 404 unknown, 400 a body or a long purpose, 409 not ready', async () => {
    const claim = await fileClaimOf();
    const exportsBefore = await t.db('claimant_exports').count({ n: '*' });
    const problem = (response: request.Response, status: number) => {
      expect(response.status).toBe(status);
      expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
    };
    problem(
      await request(t.url)
        .post(`/api/claims/claimants/${claim.claimantId}/exports`)
        .set('Authorization', await as.decider()),
      403,
    );
    problem(await requestExport(randomUUID()), 404);
    problem(await requestExport('not-a-uuid'), 404);
    problem(
      await request(t.url)
        .post(`/api/claims/claimants/${claim.claimantId}/exports`)
        .set('Authorization', await officer())
        .send({ all: true }),
      400,
    );
    expect(await t.db('claimant_exports').count({ n: '*' })).toEqual(exportsBefore);
    problem(
      await request(t.url)
        .get(`/api/claims/claimants/${claim.claimantId}/exports/${randomUUID()}`)
        .set('Authorization', await officer()),
      404,
    );

    const made = await requestExport(claim.claimantId).then((response) => response.body);
    problem(
      await request(t.url)
        .get(`/api/claims/claimants/${randomUUID()}/exports/${made.export_id}`)
        .set('Authorization', await officer()),
      404,
    );
    const ready = await readyExport(made.links.self);
    const logBefore = await t.db('claim_access_log').where({ claim_id: claim.claim_id }).count({ n: '*' });
    problem(
      await request(t.url)
        .get(ready.links.archive)
        .set('Authorization', await officer())
        .set('Access-Purpose', 'x'.repeat(201)),
      400,
    );
    problem(
      await request(t.url)
        .get(ready.links.archive)
        .set('Authorization', await as.reader()),
      403,
    );
    expect(await t.db('claim_access_log').where({ claim_id: claim.claim_id }).count({ n: '*' })).toEqual(logBefore);

    const failedId = randomUUID();
    await t.db('claimant_exports').insert({
      id: failedId,
      claimant_id: claim.claimantId,
      requested_by: 'privacy-pat',
      include_internal_notes: false,
      status: 'failed',
      failure: 'The build failed 3 times',
    });
    const failed = await request(t.url)
      .get(`/api/claims/claimants/${claim.claimantId}/exports/${failedId}/archive`)
      .set('Authorization', await officer());
    problem(failed, 409);
    expect(failed.body.status).toBe('failed');
  });

  it("the claimant's own request: 202, a second while open 409, the link by email, the one-time token downloads once", async () => {
    const claim = await fileClaimOf();
    const ask = () =>
      request(t.url).post(`/api/claims/public/claims/${claim.claim_id}/exports`).set('Authorization', `Bearer ${claim.access_token}`);
    const own = await ask();
    expect(own.status).toBe(202);
    expect(compile(ownExportSchema)(own.body)).toBe(true);
    expect(own.body).toMatchObject({ claim_id: claim.claim_id, delivery: 'email' });
    await request(t.url).post(`/api/claims/public/claims/${claim.claim_id}/exports`).set('Authorization', 'Bearer wrong-token').expect(404);

    const mail = await eventually(
      async () =>
        smtp.received.find((received) => received.to.includes(claim.values.claimant.email) && received.text.includes('#download=')),
      20000,
    );
    const token = new RegExp(`${BASE}/portal/claims/${claim.claim_id}/exports/${own.body.export_id}#download=([A-Za-z0-9_-]{43})\\s`).exec(
      mail.text,
    )?.[1];
    expect(token).toBeDefined();
    const link = await eventually(async () =>
      t.db('deliveries').where({ claim_id: claim.claim_id, kind: 'export_link', status: 'sent' }).first('export_id', 'channel'),
    );
    expect(link).toEqual({ export_id: own.body.export_id, channel: 'email' });
    expect(
      JSON.stringify(await t.db('claim_audit').where({ claim_id: claim.claim_id, action: 'export_link_sent' }).select('data')),
    ).not.toContain(token!);

    const status = await request(t.url)
      .get(`/api/claims/public/claims/${claim.claim_id}/exports/${own.body.export_id}`)
      .set('Authorization', `Bearer ${claim.access_token}`)
      .expect(200);
    expect(status.body.status).toBe('ready');
    const archive = `/api/claims/public/exports/${own.body.export_id}/archive`;
    await request(t.url).get(archive).set('Authorization', `Bearer ${claim.access_token}`).expect(404);
    const downloaded = await request(t.url).get(archive).set('Authorization', `Bearer ${token}`).buffer(true).parse(binaryBody).expect(200);
    const { json } = verifiedEntries(await zipEntries(downloaded.body));
    expect(json(`claims/${claim.claim_number}/claim.json`).claimant).toEqual(claim.values.claimant);
    const spent = await request(t.url).get(archive).set('Authorization', `Bearer ${token}`);
    expect(spent.status).toBe(410);
    expect(spent.headers['content-type']).toMatch(/application\/problem\+json/);
    // the claim's portal channel would ask for a token instead; this claim's link went by email
    await request(t.url)
      .post(`/api/claims/public/claims/${claim.claim_id}/exports/${own.body.export_id}/download-token`)
      .set('Authorization', `Bearer ${claim.access_token}`)
      .expect(409);
    // one open request at a time: while another is being built (here: by another replica, its lease running), a second is 409
    const building = randomUUID();
    await t.db('claimant_exports').insert({
      id: building,
      claimant_id: claim.claimantId,
      requested_by: 'claimant',
      via_claim_id: claim.claim_id,
      include_internal_notes: false,
      status: 'building',
      lease_until: t.db.raw("clock_timestamp() + interval '1 hour'"),
    });
    const exportsBefore = await t.db('claimant_exports').count({ n: '*' });
    const again = await ask();
    expect(again.status).toBe(409);
    expect(again.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(await t.db('claimant_exports').count({ n: '*' })).toEqual(exportsBefore);
    await t.db('claimant_exports').where({ id: building }).update({ status: 'failed', failure: 'stopped by the test', lease_until: null });
    expect((await ask()).status).toBe(202);
  });

  it('on the portal channel the portal asks for the one-time token (201), nothing is sent, and the token downloads once', async () => {
    const claim = await fileClaimOf(claimantValues(), { preferred_channel: 'portal' });
    const own = await request(t.url)
      .post(`/api/claims/public/claims/${claim.claim_id}/exports`)
      .set('Authorization', `Bearer ${claim.access_token}`)
      .expect(202);
    expect(own.body.delivery).toBe('portal');
    const tokenFor = () =>
      request(t.url)
        .post(`/api/claims/public/claims/${claim.claim_id}/exports/${own.body.export_id}/download-token`)
        .set('Authorization', `Bearer ${claim.access_token}`);
    const issued = await eventually(async () => {
      const response = await tokenFor();
      return response.status === 201 && response.body;
    }, 20000);
    expect(issued).toEqual({
      download_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      expires_at: expect.any(String),
      archive: `/api/claims/public/exports/${own.body.export_id}/archive`,
    });
    expect(await t.db('deliveries').where({ claim_id: claim.claim_id, kind: 'export_link' })).toEqual([]);
    const downloaded = await request(t.url)
      .get(issued.archive)
      .set('Authorization', `Bearer ${issued.download_token}`)
      .buffer(true)
      .parse(binaryBody)
      .expect(200);
    verifiedEntries(await zipEntries(downloaded.body));
    await request(t.url).get(issued.archive).set('Authorization', `Bearer ${issued.download_token}`).expect(410);
  });

  it('takes up a build a stopped process left (its lease ran out) and finishes it', async () => {
    const claim = await fileClaimOf();
    const exportId = randomUUID();
    await t.db('claimant_exports').insert({
      id: exportId,
      claimant_id: claim.claimantId,
      requested_by: 'privacy-pat',
      include_internal_notes: false,
      status: 'building',
      attempts: 1,
      claim_ids: JSON.stringify([claim.claim_id]),
      progress_done: 0,
      progress_total: 1,
      lease_until: t.db.raw("clock_timestamp() - interval '1 second'"),
    });
    const ready = await readyExport(`/api/claims/claimants/${claim.claimantId}/exports/${exportId}`);
    expect(ready.progress).toEqual({ done: 1, total: 1 });
    expect((await t.db('claimant_exports').where({ id: exportId }).first('attempts')).attempts).toBe(2);
    const download = await request(t.url)
      .get(ready.links.archive)
      .set('Authorization', await officer())
      .buffer(true)
      .parse(binaryBody)
      .expect(200);
    verifiedEntries(await zipEntries(download.body));
  });

  it("erasure removes the claimant's export archives: the download is gone, the token opens nothing", async () => {
    const claim = await fileClaimOf();
    const made = (await requestExport(claim.claimantId)).body;
    const ready = await readyExport(made.links.self);
    const storage = exportStorage(t.config, t.dataDir);
    // stored encrypted with the claimant's key, under the SHA-256 of its stored bytes
    const { archive_stored_sha256: stored } = await t.db('claimant_exports').where({ id: made.export_id }).first('archive_stored_sha256');
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(await storage.has(stored)).toBe(true);
    expect(await storage.has(ready.archive.sha256)).toBe(false);

    const current = await request(t.url)
      .get('/api/claims/retention-policy')
      .set('Authorization', await officer())
      .expect(200);
    await request(t.url)
      .put('/api/claims/retention-policy')
      .set('Authorization', await officer())
      .set('If-Match', current.headers.etag)
      .send({ retention_days: { paid: 0, denied: 0, withdrawn: 0, duplicate: 0 }, reason: 'Tests: nothing is retained' })
      .expect(200);
    await request(t.url)
      .post(`/api/claims/public/claims/${claim.claim_id}/withdraw`)
      .set('Authorization', `Bearer ${claim.access_token}`)
      .expect(200);
    await request(t.url)
      .post(`/api/claims/claimants/${claim.claimantId}/erasure`)
      .set('Authorization', await officer())
      .send({ reason: 'Data subject request DSR-9', legal_basis: 'consent_withdrawn' })
      .expect(201);

    expect(await storage.has(stored)).toBe(false);
    const gone = await request(t.url)
      .get(ready.links.archive)
      .set('Authorization', await officer());
    expect(gone.status).toBe(410);
    expect(gone.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(await t.db('claimant_exports').where({ id: made.export_id }).first('download_token_hash')).toEqual({
      download_token_hash: null,
    });
    const refused = await requestExport(claim.claimantId);
    expect(refused.status).toBe(409);
  });

  it('holds the internal notes’ texts when EXPORT_INCLUDE_INTERNAL_NOTES is on', async () => {
    const withNotes = await startClaimsTestService({ EXPORT_INCLUDE_INTERNAL_NOTES: 'true', EXPORT_BUILD_INTERVAL_MS: '200' });
    try {
      const filed = await fileClaim(withNotes.url, { claimant: claimantValues().claimant });
      const noteText = `Called back about the rental car ${randomBytes(3).toString('hex')}`;
      await request(withNotes.url)
        .post(`/api/claims/claims/${filed.claim_id}/notes`)
        .set('Authorization', await as.writer())
        .send({ body: noteText })
        .expect(201);
      const { claimant_id: claimantId } = await withNotes.db('claims').where({ id: filed.claim_id }).first('claimant_id');
      const made = await request(withNotes.url)
        .post(`/api/claims/claimants/${claimantId}/exports`)
        .set('Authorization', await officer())
        .expect(202);
      expect(made.body.include_internal_notes).toBe(true);
      const ready = await eventually(async () => {
        const response = await request(withNotes.url)
          .get(made.body.links.self)
          .set('Authorization', await officer())
          .expect(200);
        return response.body.status === 'ready' && response.body;
      }, 20000);
      const download = await request(withNotes.url)
        .get(ready.links.archive)
        .set('Authorization', await officer())
        .buffer(true)
        .parse(binaryBody)
        .expect(200);
      const { manifest, json } = verifiedEntries(await zipEntries(download.body));
      expect(manifest.include_internal_notes).toBe(true);
      expect(json(`claims/${filed.claim_number}/notes.json`)).toMatchObject([{ body: noteText, author: 'adjuster-ann' }]);
    } finally {
      await withNotes.stop();
    }
  });
});
