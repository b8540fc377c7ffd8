import request from 'supertest';
import { openField, reopeningReasonContext } from '../../shared/claimant-fields';
import { arrangePaidClaim } from '../financials/financials-fixtures';
import { startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { as, fileTestClaim, insertTestClaim, type TestClaimFields } from '../../testing/workflow-fixtures';

/** A StatusUpdate into closed (or, with another stage, reopening a claim). */
function closedUpdate(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    channel: 'email',
    stage: 'closed',
    what_happened: 'We made a decision on your claim',
    what_happens_next: 'Nothing more is needed from you',
    what_we_need_from_you: null,
    contact: { phone: '+14155550199', email: 'sam@insurer.example' },
    language: 'en',
    ...overrides,
  };
}

describe('closing a claim with a reason (POST …/closing: paid, denied, withdrawn, duplicate) and reopening it', () => {
  let t: ClaimsTestService;

  beforeAll(async () => {
    t = await startClaimsTestService();
  });
  afterAll(async () => {
    await t?.stop();
  });

  const newClaim = (fields: TestClaimFields = {}) => insertTestClaim(t.db, fields);
  const close = async (claimId: string, body: unknown, auth?: string) =>
    request(t.url)
      .post(`/api/claims/claims/${claimId}/closing`)
      .set('Authorization', auth ?? (await as.decider()))
      .send(body as object);
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
  const eventsOf = (type: string, claimId: string) =>
    t.events.received.filter((e) => e.routingKey === type && e.body.data.claim_id === claimId);

  it.each([
    ['paid', 'settlement', undefined],
    ['paid', 'estimate', undefined],
    ['denied', 'assigned', 'The policy excludes flood damage (section 4.2)'],
    ['withdrawn', 'waiting_on_customer', undefined],
    ['duplicate', 'intake', 'Same loss as CLM-2026-000041'],
  ])(
    'closes a claim as %s from %s: 201 with Location, on the claim, its update, the claim file, the delivery and both events',
    async (reason, stage, rationale) => {
      const claim = await newClaim({ stage: stage as TestClaimFields['stage'] });
      if (reason === 'paid') await arrangePaidClaim(t.db, claim.claim_id);
      const response = await close(claim.claim_id, { reason, ...(rationale ? { rationale } : {}), status_update: closedUpdate() });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        claim_id: claim.claim_id,
        stage: 'closed',
        reason,
        rationale: rationale ?? null,
        status_update: { claim_id: claim.claim_id, stage: 'closed', contact: { phone: '+14155550199', email: 'sam@insurer.example' } },
      });
      expect(response.headers.location).toBe(`/api/claims/claims/${claim.claim_id}/status-updates/${response.body.update_id}`);
      const stored = await request(t.url)
        .get(response.headers.location)
        .set('Authorization', await as.reader())
        .expect(200);
      expect(stored.body).toEqual(response.body.status_update);
      expect(await closingOf(claim.claim_id)).toEqual({
        stage: 'closed',
        closing_reason: reason,
        closing_rationale: rationale ?? null,
        next_update_due: null,
      });
      expect(await updatesOf(claim.claim_id)).toEqual([{ stage: 'closed', closing_reason: reason }]);
      expect(await t.db('deliveries').where({ update_id: response.body.update_id }).count({ n: '*' })).toEqual([{ n: '1' }]);
      expect((await claimFile(claim.claim_id)).closing).toEqual({ reason, rationale: rationale ?? null });
      await t.events.waitFor(() => eventsOf('claim.closed', claim.claim_id).length >= 1);
      await t.events.waitFor(() => eventsOf('claim.status_updated', claim.claim_id).length >= 1);
      const [updated] = eventsOf('claim.status_updated', claim.claim_id);
      expect(updated.body.data).toMatchObject({ previous_stage: stage, stage: 'closed', transition: 'advance' });
      expect(updated.body.data).not.toHaveProperty('closing_reason');
      const [closed] = eventsOf('claim.closed', claim.claim_id);
      expect(closed.body.data).toMatchObject({
        previous_stage: stage,
        stage: 'closed',
        closing_reason: reason,
        update_id: response.body.update_id,
      });
      for (const event of [updated, closed]) expect(JSON.stringify(event.body)).not.toMatch(/flood|CLM-2026-000041/); // the rationale stays internal
      if (rationale) {
        const audit = await t.db('claim_audit').where({ claim_id: claim.claim_id, action: 'claim.closed' }).first('data');
        expect(audit.data).toMatchObject({ closing_reason: reason, closing_rationale: rationale });
      }
    },
  );

  it('refuses a denial without a rationale, an unknown reason and a status update of another stage (400, problem+json), leaving nothing', async () => {
    const claim = await newClaim({ stage: 'inspection' });
    const refusals: [Record<string, unknown>, string][] = [
      [{ reason: 'denied', status_update: closedUpdate() }, '/rationale'],
      [{ reason: 'denied', rationale: '   ', status_update: closedUpdate() }, '/rationale'],
      [{ status_update: closedUpdate() }, '/reason'],
      [{ reason: 'lapsed', status_update: closedUpdate() }, '/reason'],
      [{ reason: 'paid' }, '/status_update'],
      [{ reason: 'paid', status_update: closedUpdate({ stage: 'estimate' }) }, '/status_update/stage'],
      [{ reason: 'paid', status_update: closedUpdate({ closing_reason: 'paid' }) }, '/status_update/closing_reason'],
      [{ reason: 'paid', status_update: closedUpdate(), closing_reason: 'paid' }, '/closing_reason'],
    ];
    for (const [body, pointer] of refusals) {
      const response = await close(claim.claim_id, body);
      expect(response.status).toBe(400);
      expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    }
    expect(await closingOf(claim.claim_id)).toMatchObject({ stage: 'inspection', closing_reason: null });
    expect(await updatesOf(claim.claim_id)).toEqual([]);
  });

  it('refuses closing through POST …/status-updates (422 naming the closing operation; 400 for the old closing fields)', async () => {
    const claim = await newClaim({ stage: 'estimate' });
    const plain = await post(claim.claim_id, closedUpdate());
    expect(plain.status).toBe(422);
    expect(plain.body.detail).toMatch(/\/closing/);
    for (const old of [{ closing_reason: 'paid' }, { closing_rationale: 'Because' }]) {
      const response = await post(claim.claim_id, closedUpdate(old));
      expect(response.status).toBe(400);
      expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(`/${Object.keys(old)[0]}`);
    }
    expect(await updatesOf(claim.claim_id)).toEqual([]);
  });

  it('answers 409 when the claim is already closed, 404 for no such claim, 403 without claims:decide, 401 without credentials', async () => {
    const closed = await newClaim({ stage: 'closed' });
    const again = await close(closed.claim_id, { reason: 'duplicate', rationale: 'Again', status_update: closedUpdate() });
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/already closed/);
    const body = { reason: 'paid', status_update: closedUpdate() };
    expect((await close('00000000-0000-4000-8000-000000000001', body)).status).toBe(404);
    const open = await newClaim({ stage: 'estimate' });
    const forbidden = await close(open.claim_id, body, await as.writer());
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.detail).toMatch(/claims:decide/);
    expect((await request(t.url).post(`/api/claims/claims/${open.claim_id}/closing`).send(body)).status).toBe(401);
    expect(await closingOf(open.claim_id)).toMatchObject({ stage: 'estimate', closing_reason: null });
    expect(await updatesOf(closed.claim_id)).toEqual([]);
  });

  it('validates its status update as any other (a past date 400, another claim id 422), changing nothing', async () => {
    const claim = await newClaim({ stage: 'estimate' });
    const past = await close(claim.claim_id, { reason: 'paid', status_update: closedUpdate({ expected_next_update_by: '2020-01-01' }) });
    expect(past.status).toBe(400);
    const other = await close(claim.claim_id, {
      reason: 'paid',
      status_update: closedUpdate({ claim_id: '00000000-0000-4000-8000-000000000002' }),
    });
    expect(other.status).toBe(422);
    expect(await closingOf(claim.claim_id)).toMatchObject({ stage: 'estimate', closing_reason: null });
    expect(await updatesOf(claim.claim_id)).toEqual([]);
  });

  it('reopens a claim the claimant withdrew: the reason is cleared, the history kept (regression: reopening failed)', async () => {
    const claim = await fileTestClaim(t.url);
    const withdraw = () =>
      request(t.url).post(`/api/claims/public/claims/${claim.claim_id}/withdraw`).set('Authorization', `Bearer ${claim.access_token}`);
    await withdraw().send({ __invalid: true }).expect(400); // it takes no body: one sent anyway is refused, not ignored
    expect(await closingOf(claim.claim_id)).toMatchObject({ closing_reason: null });
    await withdraw().expect(200);
    expect(await closingOf(claim.claim_id)).toMatchObject({ stage: 'closed', closing_reason: 'withdrawn' });

    const reopened = await post(
      claim.claim_id,
      closedUpdate({ stage: 'assigned', what_happened: 'You asked us to continue with your claim' }),
    );
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
      (await close(claim.claim_id, { reason: 'denied', rationale: 'No cover for wear and tear', status_update: closedUpdate() })).status,
    ).toBe(201);
    const reason = 'The named-driver endorsement was found; we look at your claim again.';
    const reopened = await post(claim.claim_id, closedUpdate({ stage: 'estimate', what_happened: reason }));
    expect(reopened.status).toBe(201);
    expect(await closingOf(claim.claim_id)).toMatchObject({ stage: 'estimate', closing_reason: null, closing_rationale: null });
    // the reopening's reason is stored in its own row (sealed with the claimant's key, as the update's texts are),
    // and the timeline says who reopened it into what, and why
    const updateId = String(reopened.headers.location).split('/').pop()!;
    const reopenings = await t
      .db('claim_reopenings')
      .where({ claim_id: claim.claim_id })
      .select('update_id', 'closing_reason', 'stage', 'reason', 'reopened_by');
    expect(reopenings).toEqual([
      { update_id: updateId, closing_reason: 'denied', stage: 'estimate', reason: expect.any(String), reopened_by: 'supervisor-sam' },
    ]);
    expect(openField(await t.claimKey(claim.claim_id), reopenings[0].reason, reopeningReasonContext(updateId))).toBe(reason);
    const reopening = await t
      .db('claim_audit')
      .where({ claim_id: claim.claim_id, action: 'claim.status_updated' })
      .whereRaw("data->>'stage' = 'estimate'")
      .first('reason');
    // the append-only timeline holds no copy of the text (erasure could not reach it); its read adds the reason
    expect(reopening.reason).toBe('Reopened into estimate by supervisor-sam');
    const file = await request(t.url)
      .get(`/api/claims/claims/${claim.claim_id}`)
      .set('Authorization', await as.reader())
      .expect(200);
    expect(
      file.body.timeline
        .filter((entry: { data: { transition?: string } }) => entry.data.transition === 'reopen')
        .map((entry: { reason: string }) => entry.reason),
    ).toEqual([`Reopened into estimate by supervisor-sam: ${reason}`]);
    await arrangePaidClaim(t.db, claim.claim_id);
    expect((await close(claim.claim_id, { reason: 'paid', status_update: closedUpdate() })).status).toBe(201);
    expect(await closingOf(claim.claim_id)).toMatchObject({ stage: 'closed', closing_reason: 'paid', closing_rationale: null });
    const timeline = await t
      .db('claim_audit')
      .where({ claim_id: claim.claim_id })
      .whereIn('action', ['claim.status_updated', 'claim.closed'])
      .orderBy('occurred_at')
      .select('action', 'data');
    expect(
      timeline.map(({ action, data }: { action: string; data: Record<string, unknown> }) => [
        action,
        data.stage,
        data.closing_reason,
        data.closing_rationale,
      ]),
    ).toEqual([
      ['claim.status_updated', 'closed', undefined, undefined],
      ['claim.closed', 'closed', 'denied', 'No cover for wear and tear'],
      ['claim.status_updated', 'estimate', undefined, undefined],
      ['claim.status_updated', 'closed', undefined, undefined],
      ['claim.closed', 'closed', 'paid', undefined],
    ]);
  });
});
