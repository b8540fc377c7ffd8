import request from 'supertest';
import { startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { as, fileTestClaim, insertTestClaim, type TestClaimFields } from '../../testing/workflow-fixtures';

/** A status update closing (or, with another stage, reopening) a claim. */
function closing(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    channel: 'email',
    stage: 'closed',
    what_happened: 'We made a decision on your claim',
    what_happens_next: 'Nothing more is needed from you',
    what_we_need_from_you: null,
    contact: { name: 'Sam Supervisor', phone: '+14155550199', email: 'sam@insurer.example' },
    language: 'en',
    ...overrides,
  };
}

describe('closing a claim with a reason (paid, denied, withdrawn, duplicate) and reopening it', () => {
  let t: ClaimsTestService;

  beforeAll(async () => {
    t = await startClaimsTestService();
  });
  afterAll(async () => {
    await t?.stop();
  });

  const newClaim = (fields: TestClaimFields = {}) => insertTestClaim(t.db, fields);
  const post = async (claimId: string, body: unknown, auth?: string) =>
    request(t.url)
      .post(`/api/claims/claims/${claimId}/status-updates`)
      .set('Authorization', auth ?? (await as.decider()))
      .send(body as object);
  const closingOf = async (claimId: string) =>
    t.db('claims').where({ id: claimId }).first('stage', 'closing_reason', 'closing_rationale', 'next_update_due');
  const claimFile = async (claimId: string) =>
    (
      await request(t.url)
        .get(`/api/claims/claims/${claimId}`)
        .set('Authorization', await as.reader())
        .expect(200)
    ).body.claim;
  const updatesOf = (claimId: string) =>
    t.db('status_updates').where({ claim_id: claimId }).orderBy('created_at').select('stage', 'closing_reason');
  const eventsOf = (claimId: string) =>
    t.events.received.filter((e) => e.routingKey === 'claim.status_updated' && e.body.data.claim_id === claimId);

  it.each([
    ['paid', 'settlement', undefined],
    ['paid', 'estimate', undefined],
    ['denied', 'assigned', 'The policy excludes flood damage (section 4.2)'],
    ['withdrawn', 'waiting_on_customer', undefined],
    ['duplicate', 'intake', 'Same loss as CLM-2026-000041'],
  ])('closes a claim as %s from %s, on the claim, its update, the claim file and the event', async (reason, stage, rationale) => {
    const claim = await newClaim({ stage: stage as TestClaimFields['stage'] });
    const response = await post(
      claim.claim_id,
      closing({ closing_reason: reason, ...(rationale ? { closing_rationale: rationale } : {}) }),
    );
    expect(response.status).toBe(201);
    expect(response.body).not.toHaveProperty('closing_reason'); // the StatusUpdate keeps its thirteen fields
    expect(await closingOf(claim.claim_id)).toEqual({
      stage: 'closed',
      closing_reason: reason,
      closing_rationale: rationale ?? null,
      next_update_due: null,
    });
    expect(await updatesOf(claim.claim_id)).toEqual([{ stage: 'closed', closing_reason: reason }]);
    expect((await claimFile(claim.claim_id)).closing).toEqual({ reason, rationale: rationale ?? null });
    await t.events.waitFor(() => eventsOf(claim.claim_id).length >= 1);
    const [event] = eventsOf(claim.claim_id);
    expect(event.body.data).toMatchObject({ previous_stage: stage, stage: 'closed', transition: 'advance', closing_reason: reason });
    expect(JSON.stringify(event.body)).not.toMatch(/flood|CLM-2026-000041/); // the rationale stays on the internal timeline
    if (rationale) {
      const audit = await t.db('claim_audit').where({ claim_id: claim.claim_id, action: 'claim.status_updated' }).first('data');
      expect(audit.data).toMatchObject({ closing_reason: reason, closing_rationale: rationale });
    }
  });

  it('refuses a denial without a rationale, a close without a reason, and a reason on another stage (400), leaving nothing', async () => {
    const claim = await newClaim({ stage: 'inspection' });
    const refusals: [Record<string, unknown>, string][] = [
      [{ closing_reason: 'denied' }, '/closing_rationale'],
      [{ closing_reason: 'denied', closing_rationale: '   ' }, '/closing_rationale'],
      [{}, '/closing_reason'],
      [{ closing_reason: 'lapsed' }, '/closing_reason'],
      [{ stage: 'estimate', closing_reason: 'paid' }, '/closing_reason'],
      [{ stage: 'estimate', closing_rationale: 'Because' }, '/closing_rationale'],
    ];
    for (const [overrides, pointer] of refusals) {
      const response = await post(claim.claim_id, closing(overrides));
      expect(response.status).toBe(400);
      expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    }
    expect(await closingOf(claim.claim_id)).toMatchObject({ stage: 'inspection', closing_reason: null });
    expect(await updatesOf(claim.claim_id)).toEqual([]);
  });

  it('lets only claims:decide close, a denial included (403 for claims:write)', async () => {
    const claim = await newClaim({ stage: 'estimate' });
    for (const reason of ['denied', 'paid', 'duplicate', 'withdrawn']) {
      const response = await post(claim.claim_id, closing({ closing_reason: reason, closing_rationale: 'Not covered' }), await as.writer());
      expect(response.status).toBe(403);
      expect(response.body.detail).toMatch(/claims:decide/);
    }
    expect(await closingOf(claim.claim_id)).toMatchObject({ stage: 'estimate', closing_reason: null });
  });

  it('reopens a claim the claimant withdrew: the reason is cleared, the history kept (regression: reopening failed)', async () => {
    const claim = await fileTestClaim(t.url);
    const withdraw = () =>
      request(t.url).post(`/api/claims/public/claims/${claim.claim_id}/withdraw`).set('Authorization', `Bearer ${claim.access_token}`);
    await withdraw().send({ __invalid: true }).expect(400); // it takes no body: one sent anyway is refused, not ignored
    expect(await closingOf(claim.claim_id)).toMatchObject({ closing_reason: null });
    await withdraw().expect(200);
    expect(await closingOf(claim.claim_id)).toMatchObject({ stage: 'closed', closing_reason: 'withdrawn' });

    const reopened = await post(claim.claim_id, closing({ stage: 'assigned', what_happened: 'You asked us to continue with your claim' }));
    expect(reopened.status).toBe(201);
    expect(await closingOf(claim.claim_id)).toMatchObject({ stage: 'assigned', closing_reason: null, closing_rationale: null });
    expect((await claimFile(claim.claim_id)).closing).toBeNull();
    expect(await updatesOf(claim.claim_id)).toEqual([
      { stage: 'intake', closing_reason: null },
      { stage: 'closed', closing_reason: 'withdrawn' },
      { stage: 'assigned', closing_reason: null },
    ]);
    const timeline = await t.db('claim_audit').where({ claim_id: claim.claim_id }).orderBy('occurred_at').pluck('action');
    expect(timeline).toEqual(['claim.created', 'claim.withdrawn', 'claim.status_updated']);
  });

  it('reopens a denied claim and closes it again with another reason; the timeline keeps the denial and its rationale', async () => {
    const claim = await newClaim({ stage: 'assigned' });
    expect(
      (await post(claim.claim_id, closing({ closing_reason: 'denied', closing_rationale: 'No cover for wear and tear' }))).status,
    ).toBe(201);
    expect((await post(claim.claim_id, closing({ stage: 'estimate' }))).status).toBe(201);
    expect(await closingOf(claim.claim_id)).toMatchObject({ stage: 'estimate', closing_reason: null, closing_rationale: null });
    expect((await post(claim.claim_id, closing({ closing_reason: 'paid' }))).status).toBe(201);
    expect(await closingOf(claim.claim_id)).toMatchObject({ stage: 'closed', closing_reason: 'paid', closing_rationale: null });
    const timeline = await t
      .db('claim_audit')
      .where({ claim_id: claim.claim_id, action: 'claim.status_updated' })
      .orderBy('occurred_at')
      .pluck('data');
    expect(timeline.map((data: Record<string, unknown>) => [data.stage, data.closing_reason, data.closing_rationale])).toEqual([
      ['closed', 'denied', 'No cover for wear and tear'],
      ['estimate', null, undefined],
      ['closed', 'paid', undefined],
    ]);
  });
});
