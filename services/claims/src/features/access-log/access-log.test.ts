import request from 'supertest';
import { compile } from '@platform/http';
import { bearer, fnolBody } from '@platform/testing';
import { fileClaim, startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { accessLogPageSchema } from './access-log-schemas';

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64, 1)]);

describe('who read what: the access log of a claim', () => {
  let t: ClaimsTestService;
  let officer: string;
  let reader: string;
  let writer: string;

  beforeAll(async () => {
    t = await startClaimsTestService();
    officer = await bearer('privacy:manage', 'privacy-pat');
    reader = await bearer('claims:read', 'viewer-vic');
    writer = await bearer('claims:read claims:write', 'adjuster-ann');
  });
  afterAll(async () => {
    await t?.stop();
  });

  const accessLog = async (claimId: string, query: Record<string, string> = {}) =>
    (await request(t.url).get(`/api/claims/claims/${claimId}/access-log`).query(query).set('Authorization', officer).expect(200)).body;

  it('records each staff read (claim file, attachment, kit) with who, what and the purpose, and publishes it without the purpose', async () => {
    const claim = await fileClaim(t.url, { injuries: true });
    await request(t.url)
      .post(`/api/claims/public/claims/${claim.claim_id}/attachments`)
      .set('Authorization', `Bearer ${claim.access_token}`)
      .field('document_type', 'photos_of_damage')
      .attach('file', PNG, { filename: 'bumper.png', contentType: 'image/png' })
      .expect(201);
    const purpose = 'Checking the medical report for reserve 4711';
    await request(t.url)
      .get(`/api/claims/claims/${claim.claim_id}`)
      .set('Authorization', reader)
      .set('Access-Purpose', purpose)
      .expect(200);
    const kit = await request(t.url)
      .post(`/api/claims/claims/${claim.claim_id}/generate-adjuster-kit`)
      .set('Authorization', writer)
      .set('Access-Purpose', 'Handling the claim')
      .expect(201);
    await request(t.url)
      .get(`/api/claims/claims/${claim.claim_id}/adjuster-kits/${kit.body.kit_id}`)
      .set('Authorization', reader)
      .set('Access-Purpose', 'Second opinion')
      .expect(200);
    const download = kit.body.attachments[0].download_url as string;
    await request(t.url).get(download).set('Authorization', reader).set('Access-Purpose', 'Viewing the photo').expect(200);

    const page = await accessLog(claim.claim_id);
    expect(compile(accessLogPageSchema)(page)).toBe(true);
    const expected = [
      { actor: 'viewer-vic', kind: 'claim_file', purpose, sensitive: true },
      { actor: 'adjuster-ann', kind: 'adjuster_kit', purpose: 'Handling the claim', sensitive: true },
      { actor: 'viewer-vic', kind: 'adjuster_kit', purpose: 'Second opinion', sensitive: true },
      { actor: 'viewer-vic', kind: 'attachment', purpose: 'Viewing the photo', sensitive: true },
    ];
    expect(
      page.items.map(({ actor, kind, purpose: given, sensitive }: Record<string, unknown>) => ({ actor, kind, purpose: given, sensitive })),
    ).toEqual(expected.reverse());

    const accessEvents = (events: typeof t.events.received) =>
      events.filter((event) => event.routingKey === 'claim.personal_data_accessed' && event.body.subject === claim.claim_id);
    const events = accessEvents(await t.events.waitFor((received) => accessEvents(received).length === expected.length));
    const fileRead = events.find((event) => event.body.data.kind === 'claim_file')!;
    expect(fileRead.body.data).toEqual({
      claim_id: claim.claim_id,
      actor: 'viewer-vic',
      access_id: page.items.at(-1).access_id,
      kind: 'claim_file',
      purpose_given: true,
      sensitive: true,
    });
    expect(JSON.stringify(events)).not.toContain(purpose);
  });

  it('marks a claim without injury or fraud gate as not sensitive, and pages newest first', async () => {
    const claim = await fileClaim(t.url, { injuries: false });
    for (const purpose of ['first', 'second', 'third']) {
      await request(t.url)
        .get(`/api/claims/claims/${claim.claim_id}`)
        .set('Authorization', reader)
        .set('Access-Purpose', purpose)
        .expect(200);
    }
    const first = await accessLog(claim.claim_id, { limit: '2' });
    expect(first.items.map((item: { purpose: string; sensitive: boolean }) => [item.purpose, item.sensitive])).toEqual([
      ['third', false],
      ['second', false],
    ]);
    const second = await accessLog(claim.claim_id, { limit: '2', cursor: first.next_cursor });
    expect(second).toMatchObject({ items: [{ purpose: 'first' }], next_cursor: null });
  });

  const accessRows = async (claimId: string) => t.db('claim_access_log').where({ claim_id: claimId }).count({ n: '*' });

  it('refuses every staff read of a sensitive claim without a purpose (428 naming Access-Purpose): nothing served, generated or logged', async () => {
    const claim = await fileClaim(t.url, { injuries: true });
    const attachment = await request(t.url)
      .post(`/api/claims/public/claims/${claim.claim_id}/attachments`)
      .set('Authorization', `Bearer ${claim.access_token}`)
      .attach('file', PNG, { filename: 'knee.png', contentType: 'image/png' })
      .expect(201);
    const kit = await request(t.url)
      .post(`/api/claims/claims/${claim.claim_id}/generate-adjuster-kit`)
      .set('Authorization', writer)
      .set('Access-Purpose', 'Handling the claim')
      .expect(201);
    const logged = await accessRows(claim.claim_id);
    const kits = await t.db('adjuster_kits').where({ claim_id: claim.claim_id }).count({ n: '*' });
    const reads = [
      request(t.url).get(`/api/claims/claims/${claim.claim_id}`).set('Authorization', reader),
      request(t.url).get(`/api/claims/claims/${claim.claim_id}`).set('Authorization', reader).set('Access-Purpose', '   '),
      request(t.url).post(`/api/claims/claims/${claim.claim_id}/generate-adjuster-kit`).set('Authorization', writer),
      request(t.url).get(`/api/claims/claims/${claim.claim_id}/adjuster-kits/${kit.body.kit_id}`).set('Authorization', reader),
      request(t.url)
        .get(`/api/claims/claims/${claim.claim_id}/attachments/${attachment.body.attachments[0].attachment_id}/content`)
        .set('Authorization', reader),
    ];
    for (const read of reads) {
      const refused = await read.expect(428);
      expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(refused.body).toMatchObject({
        type: 'https://errors.claims-platform.dev/precondition-required',
        status: 428,
        header: 'Access-Purpose',
        detail: expect.stringContaining('Access-Purpose'),
      });
      expect(JSON.stringify(refused.body)).not.toMatch(/Ana Ruiz|ana@example.com|Rear-ended/);
    }
    expect(await accessRows(claim.claim_id)).toEqual(logged);
    expect(await t.db('adjuster_kits').where({ claim_id: claim.claim_id }).count({ n: '*' })).toEqual(kits);
  });

  it('tells (claims:read, flags only, not logged) whether a claim needs a purpose: an injury or a fraud indicator does, others not', async () => {
    const injured = await fileClaim(t.url, { injuries: true });
    const plain = await fileClaim(t.url);
    const theft = await fileClaim(t.url, {
      police_report_number: undefined,
      loss: { ...(fnolBody().loss as object), type: 'auto_theft', description: 'Car stolen from the driveway' },
    });
    await request(t.url).post(`/api/claims/claims/${theft.claim_id}/run-triage`).set('Authorization', writer).expect(201);
    const sensitivity = async (claimId: string) =>
      (await request(t.url).get(`/api/claims/claims/${claimId}/sensitivity`).set('Authorization', reader).expect(200)).body;

    expect(await sensitivity(injured.claim_id)).toEqual({
      claim_id: injured.claim_id,
      claim_number: injured.claim_number,
      sensitive: true,
      purpose_required: true,
    });
    expect(await sensitivity(theft.claim_id)).toMatchObject({ sensitive: true, purpose_required: true });
    expect(await sensitivity(plain.claim_id)).toMatchObject({ sensitive: false, purpose_required: false });
    expect(await accessRows(injured.claim_id)).toEqual([{ n: '0' }]);
    await request(t.url).get(`/api/claims/claims/${theft.claim_id}`).set('Authorization', reader).expect(428);
    // a claim that is not sensitive is read as CONTRACT §3 says: 200 for claims:read, the purpose optional
    await request(t.url).get(`/api/claims/claims/${plain.claim_id}`).set('Authorization', reader).expect(200);

    await request(t.url).get(`/api/claims/claims/${plain.claim_id}/sensitivity`).expect(401);
    await request(t.url).get(`/api/claims/claims/${plain.claim_id}/sensitivity`).set('Authorization', officer).expect(403);
    await request(t.url)
      .get('/api/claims/claims/00000000-0000-4000-8000-000000000000/sensitivity')
      .set('Authorization', reader)
      .expect(404);
    await request(t.url).get('/api/claims/claims/not-a-claim/sensitivity').set('Authorization', reader).expect(404);
  });

  it('refuses a purpose over 200 characters (400) and serves and logs nothing', async () => {
    const claim = await fileClaim(t.url);
    const refused = await request(t.url)
      .get(`/api/claims/claims/${claim.claim_id}`)
      .set('Authorization', reader)
      .set('Access-Purpose', 'x'.repeat(201))
      .expect(400);
    expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
    expect((await accessLog(claim.claim_id)).items).toEqual([]);
    expect(
      await t
        .db('outbox')
        .where({ routing_key: 'claim.personal_data_accessed' })
        .whereRaw(`payload->>'subject' = ?`, [claim.claim_id])
        .count({ n: '*' }),
    ).toEqual([{ n: '0' }]);
  });

  it('is for privacy:manage only (401, 403), 404 for an unknown claim, and append-only in the database', async () => {
    const claim = await fileClaim(t.url);
    await request(t.url).get(`/api/claims/claims/${claim.claim_id}`).set('Authorization', reader).expect(200);
    await request(t.url).get(`/api/claims/claims/${claim.claim_id}/access-log`).expect(401);
    await request(t.url).get(`/api/claims/claims/${claim.claim_id}/access-log`).set('Authorization', reader).expect(403);
    await request(t.url)
      .get('/api/claims/claims/00000000-0000-4000-8000-000000000000/access-log')
      .set('Authorization', officer)
      .expect(404);
    await expect(t.db('claim_access_log').where({ claim_id: claim.claim_id }).update({ actor: 'someone-else' })).rejects.toThrow(
      /append-only/,
    );
    await expect(t.db('claim_access_log').where({ claim_id: claim.claim_id }).delete()).rejects.toThrow(/append-only/);
    expect((await accessLog(claim.claim_id)).items).toMatchObject([{ actor: 'viewer-vic' }]);
  });
});
