import request from 'supertest';
import { compile } from '@platform/http';
import { fileClaim, startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { statusUpdatesStore } from '../status-updates/status-updates-store';
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
    for (const answer of answers) expect({ type: answer.body.type, detail: answer.body.detail }).toEqual({ type: answers[0].body.type, detail: answers[0].body.detail });
  });

  it('shows the claimant their claim and nothing internal', async () => {
    await t.db('claims').where({ id: claim.claim_id }).update({ queue: 'special_investigations' });
    const response = await status(claim.claim_id, `Bearer ${claim.access_token}`).expect(200);
    expect(compile(claimantStatusSchema)(response.body)).toBe(true);
    expect(Object.keys(response.body).sort()).toEqual(['attachments', 'claim_id', 'claim_number', 'latest_update', 'received_at', 'required_documents', 'stage']);
    expect(response.body).toMatchObject({ claim_id: claim.claim_id, claim_number: claim.claim_number, stage: 'intake' });
    expect(response.body.latest_update).toMatchObject({ claim_id: claim.claim_id, stage: 'intake' });
    expect(JSON.stringify(response.body)).not.toMatch(/special_investigations|access_token|Ana Ruiz/);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('shows the newest status update, whatever its channel', async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    await statusUpdatesStore(t.db).insert({
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
});
