import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { canonicalSha256 } from '@platform/canonical-json';
import { compile } from '@platform/http';
import { binaryBody } from '@platform/testing';
import { startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { as, fileTestClaim, insertTestClaim } from '../../testing/workflow-fixtures';
import { adjusterKitSchema } from './adjuster-kits-schemas';

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 7)]);

describe('adjuster kits', () => {
  let t: ClaimsTestService;
  beforeAll(async () => {
    t = await startClaimsTestService();
  });
  afterAll(async () => {
    await t?.stop();
  });

  /** Stores a file as the claims core does: a row, and the bytes content-addressed under DATA_DIR. */
  async function attach(claimId: string, bytes: Buffer, documentType: string) {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const dir = path.join(t.dataDir, 'claims', 'attachments', sha256.slice(0, 2));
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, sha256), bytes);
    const id = randomUUID();
    await t.db('attachments').insert({
      id,
      claim_id: claimId,
      sha256,
      size_bytes: bytes.length,
      content_type: 'image/png',
      filename: 'bumper ü.png',
      document_type: documentType,
    });
    return { id, sha256 };
  }
  // a kit holds the claim's personal data: read with a purpose (an injury claim needs one)
  const PURPOSE = 'Handling the claim';
  const generate = async (claimId: string, auth?: string) =>
    request(t.url)
      .post(`/api/claims/claims/${claimId}/generate-adjuster-kit`)
      .set('Authorization', auth ?? (await as.writer()))
      .set('Access-Purpose', PURPOSE);

  it('refuses callers without claims:write (401, 403) and unknown claims (404)', async () => {
    const claim = await insertTestClaim(t.db);
    expect((await request(t.url).post(`/api/claims/claims/${claim.claim_id}/generate-adjuster-kit`)).status).toBe(401);
    expect((await generate(claim.claim_id, await as.reader())).status).toBe(403);
    expect((await generate(randomUUID())).status).toBe(404);
    expect(await t.db('adjuster_kits').where({ claim_id: claim.claim_id }).count({ n: '*' })).toEqual([{ n: '0' }]);
  });

  it('stores a hashed snapshot whose sha256 verifies, with draft suggestions, downloadable attachments and one event', async () => {
    const claim = await fileTestClaim(t.url, { injuries: true });
    const upload = await request(t.url)
      .post(`/api/claims/public/claims/${claim.claim_id}/attachments`)
      .set('Authorization', `Bearer ${claim.access_token}`)
      .field('document_type', 'photos_of_damage')
      .attach('file', PNG, { filename: 'bumper ü.png', contentType: 'image/png' });
    expect(upload.status).toBe(201);
    const file = { id: upload.body.attachments[0].attachment_id as string, sha256: createHash('sha256').update(PNG).digest('hex') };
    const triage = await request(t.url)
      .post(`/api/claims/claims/${claim.claim_id}/run-triage`)
      .set('Authorization', await as.writer())
      .expect(201);

    const response = await generate(claim.claim_id);
    expect(response.status).toBe(201);
    const kit = response.body;
    expect(compile(adjusterKitSchema)(kit)).toBe(true);
    const { sha256, ...snapshot } = kit;
    expect(sha256).toBe(canonicalSha256(snapshot));
    expect(kit).toMatchObject({ claim_id: claim.claim_id, generated_by: 'adjuster-ann', draft: true });
    expect(kit.triage.triage_id).toBe(triage.body.triage_id);
    expect(kit.escalation).toMatchObject({ escalation_id: triage.body.escalation_id, status: 'open' });
    expect(kit.timeline.map((entry: { action: string }) => entry.action)).toContain('claim.triaged');
    expect(kit.documents_checklist.find((d: { type: string }) => d.type === 'photos_of_damage')).toMatchObject({
      type: 'photos_of_damage',
      attachment_ids: [file.id],
    });
    expect(kit.suggested_next_steps.length).toBeGreaterThan(0);
    expect(kit.suggested_next_steps.every((step: { draft: boolean }) => step.draft === true)).toBe(true);
    expect(kit.suggested_next_steps.map((s: { step: string }) => s.step)).toContain('Decide the open escalation');

    const [attachment] = kit.attachments;
    expect(attachment).toMatchObject({ attachment_id: file.id, sha256: file.sha256, size_bytes: PNG.length });
    const download = await request(t.url)
      .get(attachment.download_url)
      .set('Authorization', await as.reader())
      .set('Access-Purpose', PURPOSE)
      .buffer(true)
      .parse(binaryBody);
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('image/png');
    expect(download.headers['content-disposition']).toContain("filename*=UTF-8''bumper%20%C3%BC.png");
    expect(
      createHash('sha256')
        .update(download.body as Buffer)
        .digest('hex'),
    ).toBe(file.sha256);

    const read = await request(t.url)
      .get(response.headers.location)
      .set('Authorization', await as.reader())
      .set('Access-Purpose', PURPOSE)
      .expect(200);
    expect(read.body).toEqual(kit);

    await t.events.waitFor((events) =>
      events.some((e) => e.routingKey === 'claim.adjuster_kit_generated' && e.body.data.kit_id === kit.kit_id),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const events = t.events.received.filter(
      (e) => e.routingKey === 'claim.adjuster_kit_generated' && e.body.data.claim_id === claim.claim_id,
    );
    expect(events).toHaveLength(1);
    expect(events[0].body.data).toMatchObject({ kit_id: kit.kit_id, sha256 });
    expect(JSON.stringify(events[0].body)).not.toMatch(/Ana Ruiz|ana\.|\+1415/);
  });

  it('makes a new kit on every generation, and the stored one is unchanged and tamper-evident', async () => {
    const claim = await insertTestClaim(t.db);
    const first = (await generate(claim.claim_id)).body;
    const second = (await generate(claim.claim_id)).body;
    expect(second.kit_id).not.toBe(first.kit_id);
    expect(second.timeline.length).toBe(first.timeline.length + 1);
    const read = await request(t.url)
      .get(`/api/claims/claims/${claim.claim_id}/adjuster-kits/${first.kit_id}`)
      .set('Authorization', await as.reader())
      .expect(200);
    expect(read.body).toEqual(first);
    await expect(t.db('adjuster_kits').where({ id: first.kit_id }).update({ sha256: 'x' })).rejects.toThrow(/append-only/);
  });

  it('answers 404 for unknown kits and attachments, and for those of another claim', async () => {
    const claim = await insertTestClaim(t.db);
    const other = await insertTestClaim(t.db);
    const file = await attach(other.claim_id, Buffer.from('%PDF-1.7 other'), 'other');
    const kit = (await generate(other.claim_id)).body;
    const reader = await as.reader();
    await request(t.url).get(`/api/claims/claims/${claim.claim_id}/adjuster-kits/${kit.kit_id}`).set('Authorization', reader).expect(404);
    await request(t.url).get(`/api/claims/claims/${claim.claim_id}/adjuster-kits/nope`).set('Authorization', reader).expect(404);
    await request(t.url)
      .get(`/api/claims/claims/${claim.claim_id}/attachments/${file.id}/content`)
      .set('Authorization', reader)
      .expect(404);
    await request(t.url)
      .get(`/api/claims/claims/${other.claim_id}/attachments/${file.id}/content`)
      .set('Authorization', reader)
      .expect(200);
    await request(t.url).get(`/api/claims/claims/${other.claim_id}/attachments/${file.id}/content`).expect(401);
  });
});
