import request from 'supertest';
import { compile } from '@platform/http';
import { bearer } from '@platform/testing';
import { countRows, fileClaim, startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { adjustersResponseSchema, assigneeResponseSchema } from './assignment-schemas';

const path = (claimId: string) => `/api/claims/claims/${claimId}/assignee`;

describe('PUT /api/claims/claims/{id}/assignee', () => {
  let t: ClaimsTestService;
  const as = {
    alice: () => bearer('claims:read claims:write', 'alice'),
    bob: () => bearer('claims:read claims:write', 'bob'),
    lead: () => bearer('claims:read claims:decide', 'lead'),
  };

  beforeAll(async () => {
    t = await startClaimsTestService();
  });
  afterAll(async () => {
    await t?.stop();
  });

  const put = (claimId: string, assignee: string | null, authorization: string, ifMatch?: string) => {
    const call = request(t.url).put(path(claimId)).set('Authorization', authorization);
    return (ifMatch === undefined ? call : call.set('If-Match', ifMatch)).send({ assignee });
  };
  const etagOf = async (claimId: string) =>
    (
      await request(t.url)
        .get(`/api/claims/claims/${claimId}`)
        .set('Authorization', await as.alice())
        .expect(200)
    ).headers.etag as string;

  it('refuses without credentials (401), without claims:write or claims:decide (403), for an unknown claim (404)', async () => {
    const claim = await fileClaim(t.url);
    await request(t.url).put(path(claim.claim_id)).send({ assignee: 'x' }).expect(401);
    await put(claim.claim_id, 'reader', await bearer('claims:read', 'reader')).expect(403);
    await put('2b1f0d5e-1111-4111-8111-111111111111', 'alice', await as.alice()).expect(404);
  });

  it.each([
    ['no assignee', {}],
    ['an empty assignee', { assignee: '' }],
    ['an assignee with a control character', { assignee: 'a\u0000b' }],
    ['an assignee with a bidirectional override', { assignee: 'alice\u202Eecila' }],
    ['an unknown field', { assignee: 'alice', note: 'x' }],
  ])('answers 400 for %s and changes nothing', async (_what, body) => {
    const claim = await fileClaim(t.url);
    const before = await countRows(t.db);
    const response = await request(t.url)
      .put(path(claim.claim_id))
      .set('Authorization', await as.alice())
      .send(body)
      .expect(400);
    expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(await countRows(t.db)).toEqual(before);
  });

  it('answers 400 for an If-Match that is not an ETag', async () => {
    const claim = await fileClaim(t.url);
    await put(claim.claim_id, 'alice', await as.alice(), 'yesterday').expect(400);
  });

  it('lets an adjuster take an unassigned claim and give it up, each audited and published once', async () => {
    const claim = await fileClaim(t.url);
    const etag = await etagOf(claim.claim_id);
    const taken = await put(claim.claim_id, 'alice', await as.alice(), etag).expect(200);
    expect(compile(assigneeResponseSchema)(taken.body)).toBe(true);
    expect(taken.body).toMatchObject({ claim_id: claim.claim_id, assignee: 'alice', previous_assignee: null });
    expect(taken.headers.etag).toBe(`"${taken.body.version}"`);
    expect(taken.headers.etag).not.toBe(etag);
    expect(await etagOf(claim.claim_id)).toBe(taken.headers.etag);

    const released = await put(claim.claim_id, null, await as.alice(), taken.headers.etag).expect(200);
    expect(released.body).toMatchObject({ assignee: null, previous_assignee: 'alice' });

    const timeline = await t
      .db('claim_audit')
      .where({ claim_id: claim.claim_id, action: 'claim.assignee_changed' })
      .orderBy('occurred_at')
      .select('actor', 'data');
    expect(timeline.map((entry: { data: { change: string } }) => entry.data.change)).toEqual(['assigned', 'released']);
    const ofClaim = (received: typeof t.events.received) =>
      received.filter((event) => event.routingKey === 'claim.assignee_changed' && event.body.subject === claim.claim_id);
    const events = ofClaim(await t.events.waitFor((received) => ofClaim(received).length >= 2));
    expect(events.map((event) => event.body.data)).toEqual([
      { claim_id: claim.claim_id, actor: 'alice', change: 'assigned', previous_assignee: null, assignee: 'alice' },
      { claim_id: claim.claim_id, actor: 'alice', change: 'released', previous_assignee: 'alice', assignee: null },
    ]);
  });

  it('lets only one of two adjusters take a claim with the same ETag: the other gets 409', async () => {
    const claim = await fileClaim(t.url);
    const etag = await etagOf(claim.claim_id);
    const [a, b] = await Promise.all([
      put(claim.claim_id, 'alice', await as.alice(), etag),
      put(claim.claim_id, 'bob', await as.bob(), etag),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    expect(loser.headers['content-type']).toMatch(/application\/problem\+json/);
    const [{ count }] = await t
      .db('claim_audit')
      .where({ claim_id: claim.claim_id, action: 'claim.assignee_changed' })
      .count({ count: '*' });
    expect(Number(count)).toBe(1);
  });

  it("keeps the ETag through the service's bookkeeping (acknowledgement delivered, first contact, a new access link), not through a visible change", async () => {
    const claim = await fileClaim(t.url);
    const etag = await etagOf(claim.claim_id);
    const bookkeeping = await t
      .db('claims')
      .where({ id: claim.claim_id })
      .update({
        acknowledgement_delivered_at: t.db.raw('clock_timestamp()'),
        first_contact_made_at: t.db.raw('clock_timestamp()'),
        access_token_hash: t.db.raw("md5(access_token_hash || 'new link')"),
      })
      .returning('version');
    expect(bookkeeping).toEqual([{ version: Number(JSON.parse(etag)) }]);
    expect(await etagOf(claim.claim_id)).toBe(etag);
    await put(claim.claim_id, 'alice', await as.alice(), etag).expect(200);
    expect(await etagOf(claim.claim_id)).not.toBe(etag);
    await t.db('claims').where({ id: claim.claim_id }).update({ loss_description: 'Water came through the kitchen ceiling' });
    expect(await etagOf(claim.claim_id)).toBe(`"${Number(JSON.parse(etag)) + 2}"`);
  });

  it('answers 409 when an adjuster takes, without If-Match, a claim someone else holds', async () => {
    const claim = await fileClaim(t.url);
    await put(claim.claim_id, 'alice', await as.alice()).expect(200);
    await put(claim.claim_id, 'bob', await as.bob()).expect(409);
    await put(claim.claim_id, 'alice', await as.alice()).expect(200);
  });

  it("refuses claims:write assigning someone else or releasing another adjuster's claim (403)", async () => {
    const claim = await fileClaim(t.url);
    await put(claim.claim_id, 'bob', await as.alice()).expect(403);
    await put(claim.claim_id, 'bob', await as.bob()).expect(200);
    await put(claim.claim_id, null, await as.alice()).expect(403);
    expect((await t.db('claims').where({ id: claim.claim_id }).first('assignee')).assignee).toBe('bob');
  });

  it('lets claims:decide assign, reassign and release anyone', async () => {
    const claim = await fileClaim(t.url);
    await put(claim.claim_id, 'alice', await as.lead()).expect(200);
    const reassigned = await put(claim.claim_id, 'bob', await as.lead()).expect(200);
    expect(reassigned.body).toMatchObject({ assignee: 'bob', previous_assignee: 'alice' });
    await put(claim.claim_id, null, await as.lead()).expect(200);
    const changes = await t
      .db('claim_audit')
      .where({ claim_id: claim.claim_id, action: 'claim.assignee_changed' })
      .orderBy('occurred_at')
      .select('actor', 'data');
    expect(changes.map((entry: { actor: string; data: { change: string } }) => [entry.actor, entry.data.change])).toEqual([
      ['lead', 'assigned'],
      ['lead', 'reassigned'],
      ['lead', 'released'],
    ]);
  });

  it('answers 409 on a closed claim', async () => {
    const claim = await fileClaim(t.url);
    await t.db('claims').where({ id: claim.claim_id }).update({ stage: 'closed' });
    await put(claim.claim_id, 'alice', await as.lead()).expect(409);
  });
});

describe('GET /api/claims/adjusters — the people the assignment picker offers', () => {
  let t: ClaimsTestService;

  beforeAll(async () => {
    t = await startClaimsTestService();
  });
  afterAll(async () => {
    await t?.stop();
  });

  const adjusters = async (query = '') =>
    (
      await request(t.url)
        .get(`/api/claims/adjusters${query}`)
        .set('Authorization', await bearer('claims:read', 'reader'))
        .expect(200)
    ).body as { items: { sub: string; last_seen_at: string }[]; next_cursor: string | null };

  it('learns whoever opens the claims list holding claims:write and whoever a claim is assigned to, not a reader', async () => {
    expect((await adjusters()).items).toEqual([]);
    await request(t.url)
      .get('/api/claims/claims')
      .set('Authorization', await bearer('claims:read claims:write', 'dana'))
      .expect(200);
    await request(t.url)
      .get('/api/claims/claims')
      .set('Authorization', await bearer('claims:read', 'reader'))
      .expect(200);
    const claim = await fileClaim(t.url);
    await request(t.url)
      .put(path(claim.claim_id))
      .set('Authorization', await bearer('claims:read claims:decide', 'lead'))
      .send({ assignee: 'eve', reason: 'Bulk assign from the queue' })
      .expect(200);
    const page = await adjusters();
    expect(compile(adjustersResponseSchema)(page)).toBe(true);
    expect(page.items.map((item) => item.sub)).toEqual(['dana', 'eve']);
    // who and why are kept with the change
    const [change] = await t
      .db('claim_audit')
      .where({ claim_id: claim.claim_id, action: 'claim.assignee_changed' })
      .select('actor', 'reason');
    expect(change).toEqual({ actor: 'lead', reason: 'Assigned to eve: Bulk assign from the queue' });
  });

  it('pages by sub with its cursor, and refuses a cursor it did not issue (400) and a caller without claims:read (403)', async () => {
    await t.db('adjusters').insert([{ sub: 'zed' }, { sub: 'yan' }]);
    const first = await adjusters('?limit=2');
    expect(first.items.map((item) => item.sub)).toEqual(['dana', 'eve']);
    const second = await adjusters(`?limit=2&cursor=${first.next_cursor}`);
    expect(second.items.map((item) => item.sub)).toEqual(['yan', 'zed']);
    expect(second.next_cursor).toBeNull();
    await request(t.url)
      .get('/api/claims/adjusters?cursor=%3D%3D')
      .set('Authorization', await bearer('claims:read', 'reader'))
      .expect(400);
    await request(t.url)
      .get('/api/claims/adjusters?cursor=A')
      .set('Authorization', await bearer('claims:read', 'reader'))
      .expect(400);
    await request(t.url)
      .get('/api/claims/adjusters')
      .set('Authorization', await bearer('claims:write', 'w'))
      .expect(403);
    await request(t.url).get('/api/claims/adjusters').expect(401);
  });
});
