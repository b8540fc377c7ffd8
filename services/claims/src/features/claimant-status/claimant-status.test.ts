import request from 'supertest';
import { arrangePaidClaim } from '../financials/financials-fixtures';
import { compile } from '@platform/http';
import { fileClaim, startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { as } from '../../testing/workflow-fixtures';
import { statusUpdatesStore } from '../status-updates';
import { claimantStatusSchema } from './claimant-status-schemas';

describe('GET /api/claims/public/claims/{id}/status', () => {
  let t: ClaimsTestService;
  let claim: Awaited<ReturnType<typeof fileClaim>>;
  let other: Awaited<ReturnType<typeof fileClaim>>;

  beforeAll(async () => {
    t = await startClaimsTestService();
    claim = await fileClaim(t.url);
    other = await fileClaim(t.url);
  });
  afterAll(async () => {
    await t?.stop();
  });

  const status = (claimId: string, authorization?: string) => {
    const call = request(t.url).get(`/api/claims/public/claims/${claimId}/status`);
    return authorization === undefined ? call : call.set('Authorization', authorization);
  };

  it('answers 401 without a token, or with a header that is not a Bearer token', async () => {
    const missing = await status(claim.claim_id).expect(401);
    expect(missing.headers['content-type']).toMatch(/application\/problem\+json/);
    await status(claim.claim_id, `Basic ${claim.access_token}`).expect(401);
  });

  it("answers the same 404 for another claim's token, a wrong token, an unknown id and a malformed id", async () => {
    const answers = [
      await status(claim.claim_id, `Bearer ${other.access_token}`).expect(404),
      await status(claim.claim_id, 'Bearer wrong-token').expect(404),
      await status('2b1f0d5e-1111-4111-8111-111111111111', `Bearer ${claim.access_token}`).expect(404),
      await status('..%2F..%2Fetc', `Bearer ${claim.access_token}`).expect(404),
    ];
    for (const answer of answers)
      expect({ type: answer.body.type, detail: answer.body.detail }).toEqual({
        type: answers[0].body.type,
        detail: answers[0].body.detail,
      });
  });

  it('shows the claimant their claim and nothing internal', async () => {
    await t.db('claims').where({ id: claim.claim_id }).update({ queue: 'special_investigations' });
    const response = await status(claim.claim_id, `Bearer ${claim.access_token}`).expect(200);
    expect(compile(claimantStatusSchema)(response.body)).toBe(true);
    expect(Object.keys(response.body).sort()).toEqual([
      'attachments',
      'claim_id',
      'claim_number',
      'closing_reason',
      'contact_name',
      'history',
      'latest_update',
      'payments',
      'received_at',
      'required_documents',
      'stage',
      'stages_passed',
    ]);
    expect(response.body).toMatchObject({
      claim_id: claim.claim_id,
      claim_number: claim.claim_number,
      stage: 'intake',
      stages_passed: [],
      closing_reason: null,
    });
    expect(response.body.latest_update).toMatchObject({ claim_id: claim.claim_id, stage: 'intake' });
    expect(JSON.stringify(response.body)).not.toMatch(/special_investigations|access_token|Ana Ruiz/);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it("names the claims team in the claim's language while nobody is assigned (no CLAIMS_CONTACT_NAME), and the assignee once assigned", async () => {
    const spanish = await fileClaim(t.url, { language: 'es-MX' });
    const before = await status(spanish.claim_id, `Bearer ${spanish.access_token}`).expect(200);
    expect(before.body.contact_name).toBe('Equipo de siniestros');
    expect((await status(claim.claim_id, `Bearer ${claim.access_token}`).expect(200)).body.contact_name).toBe('Claims team');
    await t.db('claims').where({ id: spanish.claim_id }).update({ assignee: 'Lucía Pérez' });
    expect((await status(spanish.claim_id, `Bearer ${spanish.access_token}`).expect(200)).body.contact_name).toBe('Lucía Pérez');
  });

  it('shows the newest status update, whatever its channel', async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    await statusUpdatesStore(t.db, null).insert({
      claim_id: claim.claim_id,
      channel: 'portal',
      stage: 'intake',
      what_happened: 'We looked at your photos.',
      what_happens_next: 'An adjuster calls you.',
      what_we_need_from_you: null,
      expected_next_update_by: null,
      cta: null,
      contact: null,
      portal_url: 'https://claims.example.com/c/1',
      language: 'en',
      created_by: 'adjuster-1',
    });
    const response = await status(claim.claim_id, `Bearer ${claim.access_token}`).expect(200);
    expect(response.body.latest_update).toMatchObject({
      channel: 'portal',
      what_happened: 'We looked at your photos.',
      adequacy_score: 0.29,
      adequacy_missing: ['expected_next_update_by', 'contact'],
    });
  });

  it('pages through every update sent, newest first, with an opaque cursor', async () => {
    const fresh = await fileClaim(t.url);
    for (const what of ['First look.', 'Second look.', 'Third look.']) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      await statusUpdatesStore(t.db, null).insert({
        claim_id: fresh.claim_id,
        channel: 'portal',
        stage: 'intake',
        what_happened: what,
        what_happens_next: 'We call you.',
        what_we_need_from_you: null,
        expected_next_update_by: null,
        cta: null,
        contact: null,
        portal_url: null,
        language: 'en',
        created_by: 'adjuster-7',
      });
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const path: string = `/api/claims/public/claims/${fresh.claim_id}/status?limit=3${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await request(t.url).get(path).set('Authorization', `Bearer ${fresh.access_token}`).expect(200);
      expect(compile(claimantStatusSchema)(page.body)).toBe(true);
      expect(page.body.history.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.body.history.items.map((item: { update: { what_happened: string } }) => item.update.what_happened));
      cursor = page.body.history.next_cursor;
    } while (cursor);
    expect(seen).toEqual(['Third look.', 'Second look.', 'First look.', `We received your claim ${fresh.claim_number}.`]);
    const everything = await status(fresh.claim_id, `Bearer ${fresh.access_token}`).expect(200);
    expect(JSON.stringify(everything.body)).not.toContain('adjuster-7');
  });

  it('gives every update sent exactly as the status updates store reads it back', async () => {
    const response = await status(claim.claim_id, `Bearer ${claim.access_token}`).expect(200);
    const stored = (await statusUpdatesStore(t.db, await t.claimKey(claim.claim_id)).listOfClaim(claim.claim_id)).reverse();
    expect(response.body.history.items).toEqual(
      stored.map(({ update_id, created_at, language_fallback_from, update }) => ({
        update_id,
        sent_at: created_at,
        language_fallback_from,
        update,
      })),
    );
    expect(response.body.latest_update).toEqual(stored[0].update);
  });

  it('answers 400 for a cursor it did not issue, or a limit out of range', async () => {
    for (const query of ['cursor=not-a-cursor', 'limit=0', 'limit=101', 'unknown=1']) {
      const response = await request(t.url)
        .get(`/api/claims/public/claims/${claim.claim_id}/status?${query}`)
        .set('Authorization', `Bearer ${claim.access_token}`)
        .expect(400);
      expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
    }
  });

  it("lists the claimant's files with name, type, size, received_at and scan status, never where they are stored", async () => {
    const fresh = await fileClaim(t.url);
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    await request(t.url)
      .post(`/api/claims/public/claims/${fresh.claim_id}/attachments`)
      .set('Authorization', `Bearer ${fresh.access_token}`)
      .field('document_type', 'photos_of_damage')
      .attach('file', png, { filename: 'bumper.png', contentType: 'image/png' })
      .expect(201);
    const response = await status(fresh.claim_id, `Bearer ${fresh.access_token}`).expect(200);
    expect(response.body.attachments).toEqual([
      expect.objectContaining({
        filename: 'bumper.png',
        content_type: 'image/png',
        size_bytes: png.length,
        document_type: 'photos_of_damage',
        scan_status: expect.any(String),
      }),
    ]);
    expect(JSON.stringify(response.body.attachments)).not.toMatch(/sha256|storage|\/files\/|dataDir/i);
    expect(JSON.stringify(response.body)).not.toContain(t.dataDir);
  });

  it('lists the stages the claim actually passed, in order, and why a closed claim closed', async () => {
    const fresh = await fileClaim(t.url);
    const update = (stage: string) => ({
      channel: 'portal',
      stage,
      what_happened: `Your claim is in ${stage}.`,
      what_happens_next: 'We write again soon.',
      expected_next_update_by: '2099-01-15',
      contact: { phone: '+14155550199', email: 'sam@insurer.example' },
      language: 'en',
    });
    for (const stage of ['triage', 'assigned', 'inspection'])
      await request(t.url)
        .post(`/api/claims/claims/${fresh.claim_id}/status-updates`)
        .set('Authorization', await as.decider())
        .send(update(stage))
        .expect(201);
    const open = await status(fresh.claim_id, `Bearer ${fresh.access_token}`).expect(200);
    expect(open.body).toMatchObject({ stage: 'inspection', stages_passed: ['intake', 'triage', 'assigned'], closing_reason: null });

    await arrangePaidClaim(t.db, fresh.claim_id, '1234.50');
    await request(t.url)
      .post(`/api/claims/claims/${fresh.claim_id}/closing`)
      .set('Authorization', await as.decider())
      .send({ reason: 'paid', status_update: { ...update('closed'), expected_next_update_by: undefined } })
      .expect(201);
    const closed = await status(fresh.claim_id, `Bearer ${fresh.access_token}`).expect(200);
    expect(compile(claimantStatusSchema)(closed.body)).toBe(true);
    expect(closed.body).toMatchObject({
      stage: 'closed',
      stages_passed: ['intake', 'triage', 'assigned', 'inspection'],
      closing_reason: 'paid',
    });
    // what was paid to the claimant, never the reserve
    expect(closed.body.payments).toEqual([
      { amount: { amount: '1234.50', currency: 'USD' }, paid_on: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), method: 'eft' },
    ]);
    expect(JSON.stringify(closed.body)).not.toMatch(/reserve/);
  });
});
