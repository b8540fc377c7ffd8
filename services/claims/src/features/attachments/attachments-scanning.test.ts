import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { clamdScanner, rescanPending } from '@platform/files';
import { bearer, EICAR, eventually, startTestClamd, type TestClamd } from '@platform/testing';
import { fileClaim, startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { pendingAttachmentScans } from './attachment-rescan';

/** A PDF (the upload takes it by its bytes); `infected` puts the EICAR test string inside it. */
const pdf = (infected = false) =>
  Buffer.from(`%PDF-1.4\n% ${randomBytes(8).toString('hex')}\n${infected ? `${EICAR}\n` : ''}trailer\n<< >>\n%%EOF\n`);

type Claim = Awaited<ReturnType<typeof fileClaim>>;

async function upload(t: ClaimsTestService, claim: Claim, bytes: Buffer, documentType: string) {
  const response = await request(t.url)
    .post(`/api/claims/public/claims/${claim.claim_id}/attachments`)
    .set('Authorization', `Bearer ${claim.access_token}`)
    .attach('file', bytes, 'document.pdf')
    .field('document_type', documentType)
    .expect(201);
  return response.body.attachments[0];
}

async function claimantStatus(t: ClaimsTestService, claim: Claim) {
  return (
    await request(t.url)
      .get(`/api/claims/public/claims/${claim.claim_id}/status`)
      .set('Authorization', `Bearer ${claim.access_token}`)
      .expect(200)
  ).body;
}

/** The virus-scan backlog as /metrics reports it. */
async function scanBacklog(t: ClaimsTestService) {
  const text = (await request(t.url).get('/metrics').expect(200)).text;
  const value = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1]);
  return { files: value('claims_attachments_awaiting_scan'), oldest: value('claims_attachments_awaiting_scan_oldest_seconds') };
}

let reader: string;
const download = (t: ClaimsTestService, claim: Claim, attachmentId: string) =>
  request(t.url).get(`/api/claims/claims/${claim.claim_id}/attachments/${attachmentId}/content`).set('Authorization', reader);

beforeAll(async () => {
  reader = await bearer('claims:read');
});

const received = (status: { required_documents: { type: string; received: boolean }[] }, type: string) =>
  status.required_documents.find((document) => document.type === type)?.received;

describe('attachments are scanned for viruses by clamd', () => {
  let clamd: TestClamd;
  let t: ClaimsTestService;

  beforeAll(async () => {
    clamd = await startTestClamd();
    t = await startClaimsTestService({ CLAMD_URL: clamd.url, SCAN_RETRY_INTERVAL_MS: '200' });
  });
  afterAll(async () => {
    await t?.stop();
    await clamd?.close();
  });

  it('quarantines an infected file: kept, never served (423), not counted in the checklist, the claimant told why', async () => {
    const claim = await fileClaim(t.url);
    const attachment = await upload(t, claim, pdf(true), 'photos_of_damage');
    expect(attachment).toMatchObject({ scan_status: 'infected', duplicate: false });
    expect(attachment.scan_notice).toMatch(/virus check found a threat/);
    const { stored_sha256 } = await t.db('attachments').where({ id: attachment.attachment_id }).first('stored_sha256');
    expect(await t.attachments.has(stored_sha256)).toBe(true); // kept, encrypted like every file

    const status = await claimantStatus(t, claim);
    expect(received(status, 'photos_of_damage')).toBe(false);
    expect(status.attachments).toEqual([
      expect.objectContaining({ attachment_id: attachment.attachment_id, scan_status: 'infected', scan_notice: attachment.scan_notice }),
    ]);

    const refused = await download(t, claim, attachment.attachment_id);
    expect(refused.status).toBe(423);
    expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(refused.body).toMatchObject({ scan_status: 'infected' });

    const isAdded = (e: { routingKey: string; body: { data: { attachment_id?: string } } }) =>
      e.routingKey === 'claim.attachment_added' && e.body.data.attachment_id === attachment.attachment_id;
    await t.events.waitFor((events) => events.some(isAdded));
    expect(t.events.received.find(isAdded)!.body.data).toMatchObject({
      scan_status: 'infected',
      scan_signature: expect.stringContaining('EICAR'),
    });
    const audit = await t.db('claim_audit').where({ claim_id: claim.claim_id, action: 'attachment.added' }).first();
    expect(audit.data).toMatchObject({ scan_status: 'infected', event_id: t.events.received.find(isAdded)!.body.id });
  });

  it('files a clean file as clean, counts it and serves it', async () => {
    const claim = await fileClaim(t.url);
    const bytes = pdf();
    const attachment = await upload(t, claim, bytes, 'photos_of_damage');
    expect(attachment).toMatchObject({ scan_status: 'clean', scan_notice: null });
    expect(received(await claimantStatus(t, claim), 'photos_of_damage')).toBe(true);
    const served = await download(t, claim, attachment.attachment_id).expect(200);
    expect(Buffer.from(served.body)).toEqual(bytes);
  });

  it('with clamd down leaves files pending and unserved, then the background rescan decides them once clamd is back', async () => {
    const claim = await fileClaim(t.url);
    await clamd.stop();
    let clean;
    let infected;
    try {
      clean = await upload(t, claim, pdf(), 'photos_of_damage');
      infected = await upload(t, claim, pdf(true), 'repair_estimate');
      expect([clean.scan_status, infected.scan_status]).toEqual(['pending', 'pending']);
      expect(clean.scan_notice).toMatch(/still checking/);
      expect((await download(t, claim, clean.attachment_id)).status).toBe(423);
      expect((await claimantStatus(t, claim)).attachments.map((a: { scan_status: string }) => a.scan_status)).toEqual([
        'pending',
        'pending',
      ]);
      expect((await scanBacklog(t)).files).toBeGreaterThanOrEqual(2);
    } finally {
      await clamd.start();
    }

    const decided = await eventually(async () => {
      const { attachments } = await claimantStatus(t, claim);
      return attachments.every((a: { scan_status: string }) => a.scan_status !== 'pending') && attachments;
    });
    expect(decided.map((a: { scan_status: string }) => a.scan_status)).toEqual(['clean', 'infected']);
    await eventually(async () => (await scanBacklog(t)).files === 0);
    expect((await scanBacklog(t)).oldest).toBe(0);
    const status = await claimantStatus(t, claim);
    expect(received(status, 'photos_of_damage')).toBe(true);
    expect(received(status, 'repair_estimate')).toBe(false);
    await download(t, claim, clean.attachment_id).expect(200);
    expect((await download(t, claim, infected.attachment_id)).status).toBe(423);

    const scannedEvents = () =>
      t.events.received.filter((e) => e.routingKey === 'claim.attachment_scanned' && e.body.data.claim_id === claim.claim_id);
    await t.events.waitFor(() => scannedEvents().length === 2);
    expect(
      scannedEvents()
        .map((e) => e.body.data.scan_status)
        .sort(),
    ).toEqual(['clean', 'infected']);
    expect(scannedEvents().map((e) => e.body.data.actor)).toEqual(['virus-scanner', 'virus-scanner']);
  });

  it('scans each pending file once when replicas rescan at the same time', async () => {
    const claim = await fileClaim(t.url);
    await clamd.stop();
    try {
      for (let i = 0; i < 4; i += 1) expect((await upload(t, claim, pdf(i % 2 === 0), 'other')).scan_status).toBe('pending');
    } finally {
      await clamd.start();
    }
    const scanner = clamdScanner(clamd.url, 5000);
    // Two more replicas racing the service's own background rescan.
    const pending = pendingAttachmentScans(t.files, t.config.CLAIMS_EXCHANGE);
    await Promise.all([1, 2].map(() => rescanPending(t.db, scanner, pending)));
    await eventually(
      async () => (await t.db('attachments').where({ claim_id: claim.claim_id, scan_status: 'pending' }).first()) === undefined,
    );
    const audits = await t.db('claim_audit').where({ claim_id: claim.claim_id, action: 'attachment.scanned' });
    expect(audits).toHaveLength(4);
    expect(new Set(audits.map((audit) => audit.data.attachment_id)).size).toBe(4);
  });
});

describe('attachments without a configured scanner (the embedded default)', () => {
  let t: ClaimsTestService;

  beforeAll(async () => {
    t = await startClaimsTestService();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('are marked not_scanned, say so, count in the checklist and are served', async () => {
    const claim = await fileClaim(t.url);
    const attachment = await upload(t, claim, pdf(true), 'photos_of_damage');
    expect(attachment).toMatchObject({ scan_status: 'not_scanned', scan_notice: null });
    const status = await claimantStatus(t, claim);
    expect(received(status, 'photos_of_damage')).toBe(true);
    expect(status.attachments[0].scan_status).toBe('not_scanned');
    await download(t, claim, attachment.attachment_id).expect(200);
  });
});
