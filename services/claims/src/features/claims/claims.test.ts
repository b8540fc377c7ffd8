import request from 'supertest';
import { compile } from '@platform/http';
import { bearer } from '@platform/testing';
import { claimTriageDetailProperties } from '../triage';
import { claimErasureDetailProperties } from '../erasure';
import { claimFileSchema } from './claims-routes';
import { fileClaim, startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';

describe('GET /api/claims/claims/{id} (the claim file)', () => {
  let t: ClaimsTestService;
  let claim: Awaited<ReturnType<typeof fileClaim>>;

  beforeAll(async () => {
    t = await startClaimsTestService();
    claim = await fileClaim(t.url);
  });
  afterAll(async () => {
    await t?.stop();
  });

  const read = async (claimId: string, scope = 'claims:read') =>
    request(t.url)
      .get(`/api/claims/claims/${claimId}`)
      .set('Authorization', await bearer(scope));

  it('answers 401 without credentials, 403 without claims:read, 404 for unknown and malformed ids', async () => {
    await request(t.url).get(`/api/claims/claims/${claim.claim_id}`).expect(401);
    await request(t.url).get(`/api/claims/claims/${claim.claim_id}`).set('Authorization', `Bearer ${claim.access_token}`).expect(401);
    expect((await read(claim.claim_id, 'claims:write')).status).toBe(403);
    expect((await read('9d7e8f00-2222-4222-8222-222222222222')).status).toBe(404);
    expect((await read('nope')).status).toBe(404);
  });

  it('returns the claim, its status updates, attachments, timeline and triage sections, never the token hash', async () => {
    const response = await read(claim.claim_id);
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const schema = claimFileSchema([
      { properties: claimTriageDetailProperties, load: async () => ({}) },
      { properties: claimErasureDetailProperties, load: async () => ({}) },
    ]);
    expect(response.body.claimant_erased_at).toBeNull();
    expect(compile(schema)(response.body)).toBe(true);
    expect(response.body.claim).toMatchObject({
      claim_id: claim.claim_id,
      claim_number: claim.claim_number,
      claimant: { name: 'Ana Ruiz', email: 'ana@example.com', phone: '+14155550100' },
      estimated_amount: { amount: '2500.00', currency: 'USD' },
      stage: 'intake',
    });
    expect(response.body.status_updates).toHaveLength(1);
    expect(response.body.status_updates[0]).toMatchObject({ created_by: 'system:intake', stage: 'intake' });
    expect(response.body.attachments).toEqual([]);
    expect(response.body.timeline.map((entry: { action: string }) => entry.action)).toEqual(['claim.created']);
    expect(response.body).toMatchObject({ triage: null, escalation: null });
    expect(JSON.stringify(response.body)).not.toMatch(/access_token/);
  });

  it('keeps the timeline append-only at the database', async () => {
    await expect(t.db('claim_audit').where({ claim_id: claim.claim_id }).update({ actor: 'someone else' })).rejects.toThrow(/append-only/);
    await expect(t.db('claim_audit').where({ claim_id: claim.claim_id }).delete()).rejects.toThrow(/append-only/);
  });

  it('documents every claims-core operation in the OpenAPI document, relative to its server URL', async () => {
    const { body } = await request(t.url).get('/openapi.json').expect(200);
    expect(body.servers).toEqual([{ url: '/api/claims' }]);
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining([
        '/public/claims',
        '/public/claims/{id}/status',
        '/public/claims/{id}/attachments',
        '/claims',
        '/claims/{id}',
      ]),
    );
    expect(Object.keys(body.paths).filter((path) => path.startsWith('/api/'))).toEqual([]);
    expect(body.paths['/public/claims'].post.responses['201']).toBeDefined();
    expect(body.paths['/claims'].get.security).toEqual([{ bearerJwt: ['claims:read'] }]);
  });
});
