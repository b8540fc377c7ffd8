import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { bearer } from '@platform/testing';
import { startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { as, insertTestClaim } from '../../testing/workflow-fixtures';

const privacyOfficer = () => bearer('privacy:manage', 'privacy-pat');

describe('legal holds on a claim', () => {
  let t: ClaimsTestService;
  beforeAll(async () => {
    t = await startClaimsTestService();
  });
  afterAll(async () => {
    await t?.stop();
  });

  const holdsPath = (claimId: string) => `/api/claims/claims/${claimId}/legal-holds`;
  const eventsOf = (claimId: string, type: string) =>
    t.events.received.filter((event) => event.body.type === type && (event.body.data as { claim_id: string }).claim_id === claimId);

  it('places a hold with who and why, lists it, and announces it without the reason', async () => {
    const claim = await insertTestClaim(t.db);
    const placed = await request(t.url)
      .post(holdsPath(claim.claim_id))
      .set('Authorization', await privacyOfficer())
      .send({ reason: 'Litigation notice 2026-114' })
      .expect(201);
    expect(placed.body).toMatchObject({
      claim_id: claim.claim_id,
      reason: 'Litigation notice 2026-114',
      placed_by: 'privacy-pat',
      released: null,
    });
    const listed = await request(t.url)
      .get(holdsPath(claim.claim_id))
      .set('Authorization', await privacyOfficer())
      .expect(200);
    expect(listed.body.items).toEqual([placed.body]);
    await t.events.waitFor((events) =>
      events.some((event) => event.body.type === 'claim.legal_hold_placed' && event.body.data.hold_id === placed.body.hold_id),
    );
    const [event] = eventsOf(claim.claim_id, 'claim.legal_hold_placed');
    expect(event.body.data).toEqual({ claim_id: claim.claim_id, actor: 'privacy-pat', hold_id: placed.body.hold_id });
  });

  it('releases a hold once, recording who and why; a second release is 409', async () => {
    const claim = await insertTestClaim(t.db);
    const placed = await request(t.url)
      .post(holdsPath(claim.claim_id))
      .set('Authorization', await privacyOfficer())
      .send({ reason: 'Regulator inquiry' })
      .expect(201);
    const release = async () =>
      request(t.url)
        .post(`${holdsPath(claim.claim_id)}/${placed.body.hold_id}/release`)
        .set('Authorization', await bearer('privacy:manage', 'privacy-quinn'))
        .send({ reason: 'Inquiry closed' });
    const released = await release();
    expect(released.status).toBe(200);
    expect(released.body.released).toMatchObject({ by: 'privacy-quinn', reason: 'Inquiry closed' });
    const again = await release();
    expect(again.status).toBe(409);
    expect(again.headers['content-type']).toMatch(/application\/problem\+json/);
  });

  it.each([
    ['an unknown claim', async () => `${holdsPath(randomUUID())}`, { reason: 'x' }, 404],
    ['no reason', async () => holdsPath((await insertTestClaim(t.db)).claim_id), {}, 400],
    ['an empty reason', async () => holdsPath((await insertTestClaim(t.db)).claim_id), { reason: '' }, 400],
    ['an unknown hold', async () => `${holdsPath((await insertTestClaim(t.db)).claim_id)}/${randomUUID()}/release`, { reason: 'x' }, 404],
    ['a hold id that is no UUID', async () => `${holdsPath((await insertTestClaim(t.db)).claim_id)}/nope/release`, { reason: 'x' }, 404],
  ])('refuses %s with problem+json and writes nothing', async (_what, path, body, status) => {
    const url = await path();
    const before = await t.db('legal_holds').count({ n: '*' });
    const response = await request(t.url)
      .post(url)
      .set('Authorization', await privacyOfficer())
      .send(body);
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(await t.db('legal_holds').count({ n: '*' })).toEqual(before);
  });

  it('is for privacy:manage only', async () => {
    const claim = await insertTestClaim(t.db);
    await request(t.url)
      .post(holdsPath(claim.claim_id))
      .set('Authorization', await as.decider())
      .send({ reason: 'x' })
      .expect(403);
    await request(t.url)
      .get(holdsPath(claim.claim_id))
      .set('Authorization', await as.reader())
      .expect(403);
  });
});
