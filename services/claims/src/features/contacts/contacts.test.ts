import request from 'supertest';
import { compile } from '@platform/http';
import { bearer } from '@platform/testing';
import { countRows, startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { openBreachCondition } from '../../shared/claim-deadlines';
import { insertTestClaim } from '../../testing/workflow-fixtures';
import { reconcilePlatformActivities } from '../diary';
import { contactSchema, contactsListSchema } from './contacts-schemas';

describe('contacts with the claimant (POST/GET …/contacts)', () => {
  let t: ClaimsTestService;
  let ann = '';
  let reader = '';
  let decider = '';

  beforeAll(async () => {
    t = await startClaimsTestService();
    ann = await bearer('claims:read claims:write', 'adjuster-ann');
    reader = await bearer('claims:read', 'viewer-vic');
    decider = await bearer('claims:read claims:decide', 'lead-bo');
  });
  afterAll(async () => {
    await t?.stop();
  });

  const record = (claimId: string, body: object, auth = ann) =>
    request(t.url).post(`/api/claims/claims/${claimId}/contacts`).set('Authorization', auth).send(body);
  const claimOf = async (claimId: string) =>
    (await request(t.url).get(`/api/claims/claims/${claimId}`).set('Authorization', reader).expect(200)).body.claim;
  const firstContactBreached = async (claimId: string) =>
    (await t.db('claims').where({ id: claimId }).whereRaw(openBreachCondition('first_contact')).first('id')) !== undefined;

  it('the first contact ends the first-contact deadline and completes the assignee’s "first contact due" activity, with an event', async () => {
    const { claim_id: claimId } = await insertTestClaim(t.db, { stage: 'assigned' });
    await t
      .db('claims')
      .where({ id: claimId })
      .update({
        assignee: 'adjuster-ann',
        received_at: new Date(Date.now() - 86400_000),
        first_contact_due: new Date(Date.now() - 60_000),
      });
    await reconcilePlatformActivities(t.db, t.config.CLAIMS_EXCHANGE, claimId);
    const firstContactActivity = () => t.db('claim_activities').where({ claim_id: claimId, kind: 'first_contact_due' }).first();
    expect((await firstContactActivity()).completed_at).toBeNull();
    expect((await claimOf(claimId)).first_contact_made_at).toBeNull();
    expect(await firstContactBreached(claimId)).toBe(true);
    const version = (await claimOf(claimId)).version;

    const occurredAt = new Date(Date.now() - 60_000).toISOString();
    const first = await record(claimId, { channel: 'call', occurred_at: occurredAt, note: 'Explained the next steps' }).expect(201);
    expect(compile(contactSchema)(first.body)).toBe(true);
    expect(first.body).toMatchObject({
      channel: 'call',
      occurred_at: occurredAt,
      note: 'Explained the next steps',
      recorded_by: 'adjuster-ann',
    });

    const claim = await claimOf(claimId);
    expect(claim.first_contact_made_at).toBe(occurredAt);
    expect(claim.version).toBe(version);
    expect(await firstContactBreached(claimId)).toBe(false);
    const activity = await firstContactActivity();
    expect(activity.completed_at).not.toBeNull();
    expect(activity.completed_by).toBe('system:diary');

    const second = await record(claimId, { channel: 'visit' }).expect(201);
    expect((await claimOf(claimId)).first_contact_made_at).toBe(occurredAt);
    const listed = await request(t.url).get(`/api/claims/claims/${claimId}/contacts`).set('Authorization', reader).expect(200);
    expect(compile(contactsListSchema)(listed.body)).toBe(true);
    expect(listed.body.items.map((c: { contact_id: string }) => c.contact_id)).toEqual([second.body.contact_id, first.body.contact_id]);

    const ofClaim = (received: typeof t.events.received) =>
      received.filter((e) => e.routingKey === 'claim.contact_recorded' && e.body.subject === claimId);
    const events = ofClaim(await t.events.waitFor((received) => ofClaim(received).length >= 2));
    expect(events.map((e) => e.body.data)).toEqual([
      {
        claim_id: claimId,
        actor: 'adjuster-ann',
        contact_id: first.body.contact_id,
        channel: 'call',
        occurred_at: occurredAt,
        first_contact: true,
      },
      {
        claim_id: claimId,
        actor: 'adjuster-ann',
        contact_id: second.body.contact_id,
        channel: 'visit',
        occurred_at: second.body.occurred_at,
        first_contact: false,
      },
    ]);
    // the note stays in the claims service: not in the event, not on the timeline
    const audit = await t.db('claim_audit').where({ claim_id: claimId, action: 'claim.contact_recorded' }).select('reason', 'data');
    expect(audit.map((a: { reason: string }) => a.reason)).toEqual(['Contact by call', 'Contact by visit']);
    expect(JSON.stringify([audit, events])).not.toContain('Explained');
    await expect(t.db('claim_contacts').where({ id: first.body.contact_id }).update({ note: 'x' })).rejects.toThrow(/append-only/);
  });

  it('refuses without claims:write, a bad body, a moment in the future or before the claim, a closed claim (nothing written)', async () => {
    const { claim_id: claimId } = await insertTestClaim(t.db, { stage: 'assigned' });
    const closed = (await insertTestClaim(t.db, { stage: 'closed' })).claim_id;
    await t.db('claims').where({ id: closed }).update({ closing_reason: 'duplicate' });
    const before = await countRows(t.db);
    const problem = async (pending: request.Test, status: number) => {
      const response = await pending.expect(status);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      return response.body;
    };
    await request(t.url).post(`/api/claims/claims/${claimId}/contacts`).send({ channel: 'call' }).expect(401);
    await problem(record(claimId, { channel: 'call' }, reader), 403);
    await problem(record(claimId, { channel: 'call' }, decider), 403);
    await problem(record(claimId, { channel: 'fax' }), 400);
    await problem(record(claimId, {}), 400);
    await problem(record(claimId, { channel: 'call', note: '   ' }), 400);
    await problem(record(claimId, { channel: 'call', note: 'x'.repeat(2001) }), 400);
    await problem(record(claimId, { channel: 'call', occurred_at: 'yesterday' }), 400);
    await problem(record(claimId, { channel: 'call', extra: 1 }), 400);
    await problem(
      request(t.url)
        .post(`/api/claims/claims/${claimId}/contacts`)
        .set('Authorization', ann)
        .set('Content-Type', 'text/plain')
        .send('call'),
      415,
    );
    const future = await problem(record(claimId, { channel: 'call', occurred_at: new Date(Date.now() + 86400_000).toISOString() }), 422);
    expect(future.errors).toEqual([{ pointer: '/occurred_at', message: 'is in the future' }]);
    await problem(record(claimId, { channel: 'call', occurred_at: '2001-01-01T00:00:00Z' }), 422);
    await problem(record(closed, { channel: 'email' }), 409);
    await problem(record('2b1f0d5e-1111-4111-8111-111111111111', { channel: 'call' }), 404);
    expect(await countRows(t.db)).toEqual(before);
    expect(Number((await t.db('claim_contacts').whereIn('claim_id', [claimId, closed]).count({ n: '*' }))[0].n)).toBe(0);
    expect((await claimOf(claimId)).first_contact_made_at).toBeNull();
  });
});
