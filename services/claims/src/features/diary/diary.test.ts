import request from 'supertest';
import { compile } from '@platform/http';
import { bearer } from '@platform/testing';
import { countRows, startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { daysAgo, daysAhead, insertTestClaim } from '../../testing/workflow-fixtures';
import { announceOverdueActivities } from './diary-overdue';
import { reconcilePlatformActivities } from './platform-activities';
import { activitySchema, claimActivitiesSchema, diaryPageSchema } from './diary-schemas';

describe('the diary: activities on claims and my diary across them', () => {
  let t: ClaimsTestService;
  let ann = '';
  let bob = '';

  beforeAll(async () => {
    t = await startClaimsTestService();
    // a fresh subject per run: my diary is across every claim of the database
    ann = await bearer('claims:read claims:write', `adjuster-${Date.now()}`);
    bob = await bearer('claims:read claims:write', `adjuster-bob-${Date.now()}`);
  });
  afterAll(async () => {
    await t?.stop();
  });

  const create = (claimId: string, body: object, auth = ann) =>
    request(t.url).post(`/api/claims/claims/${claimId}/activities`).set('Authorization', auth).send(body);
  const diary = (query: string, auth = ann) => request(t.url).get(`/api/claims/activities?assignee=me${query}`).set('Authorization', auth);
  const idsOf = (body: { items: { activity_id: string }[] }) => body.items.map((a) => a.activity_id);

  it('lists my open activities across claims by due (overdue, today, week), earliest first, cursor-paged', async () => {
    const [a, b] = [(await insertTestClaim(t.db)).claim_id, (await insertTestClaim(t.db)).claim_id];
    const overdue = await create(a, { subject: 'Call back', due_on: daysAgo(2), priority: 'high' }).expect(201);
    expect(compile(activitySchema)(overdue.body)).toBe(true);
    const today = await create(b, { subject: 'Chase estimate', due_on: daysAhead(0), priority: 'normal' }).expect(201);
    const week = await create(a, { subject: 'Review photos', due_on: daysAhead(3), priority: 'low' }).expect(201);
    const later = await create(b, { subject: 'Diary check', due_on: daysAhead(30), priority: 'low' }).expect(201);
    await create(a, { subject: 'For Bob', due_on: daysAhead(0), priority: 'low', assignee: 'someone-else' }).expect(201);

    expect(idsOf((await diary('&due=overdue').expect(200)).body)).toEqual([overdue.body.activity_id]);
    expect(idsOf((await diary('&due=today').expect(200)).body)).toEqual([today.body.activity_id]);
    expect(idsOf((await diary('&due=week').expect(200)).body)).toEqual([today.body.activity_id, week.body.activity_id]);
    const first = await diary('&limit=3').expect(200);
    expect(compile(diaryPageSchema)(first.body)).toBe(true);
    expect(idsOf(first.body)).toEqual([overdue.body.activity_id, today.body.activity_id, week.body.activity_id]);
    const second = await diary(`&limit=3&cursor=${first.body.next_cursor}`).expect(200);
    expect(second.body).toEqual({ items: [later.body], next_cursor: null });
    await diary('&cursor=bogus').expect(400);
    await request(t.url).get('/api/claims/activities?assignee=bob').set('Authorization', ann).expect(400);
    await request(t.url).get('/api/claims/activities').set('Authorization', ann).expect(400);
  });

  it('completes an activity once (then it leaves my diary) and reassigns an open one to someone else', async () => {
    const claimId = (await insertTestClaim(t.db)).claim_id;
    const one = await create(claimId, { subject: 'Inspect', due_on: daysAhead(1), priority: 'normal' }).expect(201);
    const two = await create(claimId, { subject: 'Call', due_on: daysAhead(1), priority: 'normal' }).expect(201);
    const path = (id: string, action: string) => `/api/claims/claims/${claimId}/activities/${id}/${action}`;
    const done = await request(t.url).post(path(one.body.activity_id, 'complete')).set('Authorization', ann).expect(200);
    expect(done.body.completed_at).not.toBeNull();
    await request(t.url).post(path(one.body.activity_id, 'complete')).set('Authorization', ann).expect(409);
    const bobSub = JSON.parse(Buffer.from(bob.split('.')[1], 'base64url').toString()).sub as string;
    const moved = await request(t.url)
      .post(path(two.body.activity_id, 'reassign'))
      .set('Authorization', ann)
      .send({ assignee: bobSub })
      .expect(200);
    expect(moved.body.assignee).toBe(bobSub);
    const mine = idsOf((await diary('&due=week').expect(200)).body);
    expect(mine).not.toContain(one.body.activity_id);
    expect(mine).not.toContain(two.body.activity_id);
    expect(idsOf((await diary('&due=week', bob).expect(200)).body)).toEqual([two.body.activity_id]);
    await request(t.url).post(path(one.body.activity_id, 'reassign')).set('Authorization', ann).send({ assignee: bobSub }).expect(409);
    await request(t.url).post(path('2b1f0d5e-1111-4111-8111-111111111111', 'complete')).set('Authorization', ann).expect(404);

    // The claim's own diary: open first (whoever has them), then the completed ones.
    const ofClaim = (id: string, auth = ann) => request(t.url).get(`/api/claims/claims/${id}/activities`).set('Authorization', auth);
    const listed = await ofClaim(claimId, await bearer('claims:read', 'viewer')).expect(200);
    expect(compile(claimActivitiesSchema)(listed.body)).toBe(true);
    expect(idsOf(listed.body)).toEqual([two.body.activity_id, one.body.activity_id]);
    expect(listed.body.items[0].assignee).toBe(bobSub);
    await ofClaim('2b1f0d5e-1111-4111-8111-111111111111').expect(404);
    await ofClaim(claimId, await bearer('evidence:write', 'preparer')).expect(403);
  });

  it('refuses a bad activity with 400/403/404 and writes nothing', async () => {
    const claimId = (await insertTestClaim(t.db)).claim_id;
    const before = await countRows(t.db);
    await create(claimId, { subject: 'x', due_on: '2026-02-30', priority: 'normal' }).expect(400);
    await create(claimId, { subject: ' ', due_on: daysAhead(1), priority: 'normal' }).expect(400);
    await create(claimId, { subject: 'x', due_on: daysAhead(1), priority: 'whenever' }).expect(400);
    await create(claimId, { subject: 'x', due_on: daysAhead(1), priority: 'low' }, await bearer('claims:read', 'viewer')).expect(403);
    await create('2b1f0d5e-1111-4111-8111-111111111111', { subject: 'x', due_on: daysAhead(1), priority: 'low' }).expect(404);
    expect(await countRows(t.db)).toEqual(before);
  });

  it('announces an open overdue activity once (claim.activity_overdue), never a completed or future one', async () => {
    const claimId = (await insertTestClaim(t.db)).claim_id;
    const late = await create(claimId, { subject: 'Secret subject', due_on: daysAgo(1), priority: 'high' }).expect(201);
    const done = await create(claimId, { subject: 'Done', due_on: daysAgo(1), priority: 'high' }).expect(201);
    await create(claimId, { subject: 'Tomorrow', due_on: daysAhead(1), priority: 'high' }).expect(201);
    await request(t.url)
      .post(`/api/claims/claims/${claimId}/activities/${done.body.activity_id}/complete`)
      .set('Authorization', ann)
      .expect(200);
    await announceOverdueActivities(t.db, t.config.CLAIMS_EXCHANGE);
    await announceOverdueActivities(t.db, t.config.CLAIMS_EXCHANGE);
    const announced = await t.db('claim_audit').where({ claim_id: claimId, action: 'claim.activity_overdue' }).select('data');
    expect(announced.map((r: { data: { activity_id: string } }) => r.data.activity_id)).toEqual([late.body.activity_id]);
    const ofClaim = (received: typeof t.events.received) =>
      received.filter((e) => e.routingKey === 'claim.activity_overdue' && e.body.subject === claimId);
    const [event] = ofClaim(await t.events.waitFor((received) => ofClaim(received).length >= 1));
    expect(event.body.data).toEqual({
      claim_id: claimId,
      actor: 'system:diary-sweep',
      activity_id: late.body.activity_id,
      assignee: late.body.assignee,
      due_on: daysAgo(1),
    });
  });

  it("keeps the platform activities in the assignee's diary from the claim: first contact, promised update, documents, closed when fulfilled", async () => {
    const sub = JSON.parse(Buffer.from(bob.split('.')[1], 'base64url').toString()).sub as string;
    const claimId = (await insertTestClaim(t.db, { stage: 'assigned' })).claim_id;
    const promised = new Date(`${daysAhead(3)}T12:00:00Z`);
    await t.db('claims').where({ id: claimId }).update({ assignee: sub, next_update_due: promised });
    await reconcilePlatformActivities(t.db, t.config.CLAIMS_EXCHANGE);
    const open = async () =>
      (await t.db('claim_activities').where({ claim_id: claimId }).whereNull('completed_at').orderBy('kind').select('kind', 'due_on')).map(
        (r: { kind: string; due_on: Date | string }) => [r.kind, typeof r.due_on === 'string' ? r.due_on : r.due_on.toISOString()],
      );
    expect((await open()).map(([kind]) => kind)).toEqual(['documents_requested', 'first_contact_due', 'promised_update_due']);
    await reconcilePlatformActivities(t.db, t.config.CLAIMS_EXCHANGE);
    expect(Number((await t.db('claim_activities').where({ claim_id: claimId }).count({ n: '*' }))[0].n)).toBe(3);
    expect(idsOf((await diary('&due=week', bob).expect(200)).body).length).toBeGreaterThanOrEqual(3);

    // contact made, every document received, a new promise: the first two close, the promise moves
    await t
      .db('claims')
      .where({ id: claimId })
      .update({
        first_contact_made_at: new Date(),
        required_documents: JSON.stringify([{ type: 'photos_of_damage', received: true }]),
        next_update_due: new Date(`${daysAhead(5)}T12:00:00Z`),
      });
    await reconcilePlatformActivities(t.db, t.config.CLAIMS_EXCHANGE);
    const after = await t
      .db('claim_activities')
      .where({ claim_id: claimId })
      .whereNull('completed_at')
      .select('kind', t.db.raw(`to_char(due_on, 'YYYY-MM-DD') AS due`));
    expect(after).toEqual([{ kind: 'promised_update_due', due: daysAhead(5) }]);
    const completed = await t.db('claim_activities').where({ claim_id: claimId }).whereNotNull('completed_at').select('completed_by');
    expect(completed.map((r: { completed_by: string }) => r.completed_by)).toEqual(['system:diary', 'system:diary', 'system:diary']);

    await t.db('claims').where({ id: claimId }).update({ stage: 'closed', closing_reason: 'duplicate', next_update_due: null });
    await reconcilePlatformActivities(t.db, t.config.CLAIMS_EXCHANGE);
    expect(await t.db('claim_activities').where({ claim_id: claimId }).whereNull('completed_at').select('kind')).toEqual([]);
  });
});
