import request from 'supertest';
import { eventually } from '@platform/testing';
import { ownPolicyFnol } from './fnol';
import { startPlatform, type PlatformProcess } from './platform-process';

/** Claimant self-service under `pnpm start` on embedded PGlite: its keyset paging and database rate limits are PostgreSQL SQL. */
describe('claimant self-service, embedded (pnpm start, PGlite)', () => {
  let platform: PlatformProcess;

  beforeAll(async () => {
    platform = await startPlatform({ AUTH_JWT_SECRET: 'embedded-test-secret-0123456789abcdef', ACCESS_LINK_LIMIT_PER_CLAIM: '2' });
  }, 120000);
  afterAll(async () => {
    await platform?.stop();
  });

  const fileClaim = async (overrides: Record<string, unknown> = {}) =>
    (await request(platform.gatewayUrl).post('/api/claims/public/claims').send(ownPolicyFnol(overrides)).expect(201)).body as {
      claim_id: string;
      claim_number: string;
      access_token: string;
    };
  const status = (claimId: string, token: string, query = '') =>
    request(platform.gatewayUrl).get(`/api/claims/public/claims/${claimId}/status${query}`).set('Authorization', `Bearer ${token}`);

  it('pages the history in the claim language, lists the files, and withdraws', async () => {
    const claim = await fileClaim({ language: 'es' });
    const page = await status(claim.claim_id, claim.access_token, '?limit=1').expect(200);
    expect(page.body.history).toEqual({
      items: [
        expect.objectContaining({
          update: expect.objectContaining({ language: 'es', what_happened: `Hemos recibido su reclamación ${claim.claim_number}.` }),
        }),
      ],
      next_cursor: null,
    });
    expect(page.body.attachments).toEqual([]);
    await request(platform.gatewayUrl)
      .post(`/api/claims/public/claims/${claim.claim_id}/withdraw`)
      .set('Authorization', `Bearer ${claim.access_token}`)
      .expect(200);
    const after = await status(claim.claim_id, claim.access_token, '?limit=1').expect(200);
    expect(after.body.stage).toBe('closed');
    const older = await status(claim.claim_id, claim.access_token, `?limit=1&cursor=${after.body.history.next_cursor}`).expect(200);
    expect(older.body.history.items[0].update.stage).toBe('intake');
  });

  it('sends a new link that ends the old token, and rate limits per claim number in the database', async () => {
    const claim = await fileClaim();
    const body = { claim_number: claim.claim_number, email: 'ANA@example.com' };
    await request(platform.gatewayUrl).post('/api/claims/public/access-links').send(body).expect(202);
    await eventually(async () => (await status(claim.claim_id, claim.access_token)).status === 404);
    // With no SMTP or SMS provider, pnpm start hands the new link to its log: the claimant (here, the developer) opens it there.
    const token = new RegExp(`/portal/claims/${claim.claim_id}#token=([A-Za-z0-9_-]{43})`).exec(platform.output())?.[1];
    expect(token).toBeDefined();
    await status(claim.claim_id, token!).expect(200);
    await request(platform.gatewayUrl).post('/api/claims/public/access-links').send(body).expect(202);
    const refused = await request(platform.gatewayUrl).post('/api/claims/public/access-links').send(body).expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});
