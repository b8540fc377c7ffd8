import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { arrangePaidClaim } from '../financials/financials-fixtures';
import { compile } from '@platform/http';
import { bearer, eventually } from '@platform/testing';
import { startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { as, daysAgo, daysAhead, insertTestClaim, type TestClaimFields } from '../../testing/workflow-fixtures';
import { DELIVERY_MAX_ATTEMPTS } from '../delivery/delivery-worker';
import { statusUpdateSchema } from '../../shared/status-update';

const OWN_BASE_URL = 'http://claims.localhost:8080';

/** The fake SMS provider refuses messages to this number. */
const FAILING_PHONE = '+14155550000';

const THIRTEEN = [
  'claim_id',
  'channel',
  'stage',
  'what_happened',
  'what_happens_next',
  'what_we_need_from_you',
  'expected_next_update_by',
  'cta',
  'contact',
  'portal_url',
  'language',
  'adequacy_score',
  'adequacy_missing',
].sort();

function update(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    channel: 'email',
    stage: 'assigned',
    what_happened: 'Your claim was assigned to an adjuster',
    what_happens_next: 'The adjuster calls you within two working days',
    what_we_need_from_you: null,
    expected_next_update_by: daysAhead(3),
    contact: { phone: '+14155550199', email: 'ann@insurer.example' },
    language: 'en',
    ...overrides,
  };
}

describe('status updates and deliveries', () => {
  let t: ClaimsTestService;
  let smsServer: Server;
  const smsReceived: { to: string; body: string; reference: string }[] = [];

  beforeAll(async () => {
    smsServer = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const message = JSON.parse(body);
        if (message.to === FAILING_PHONE) return void res.writeHead(500).end();
        smsReceived.push(message);
        res.writeHead(202).end();
      });
    });
    await new Promise<void>((resolve) => smsServer.listen(0, '127.0.0.1', resolve));
    const smsUrl = `http://127.0.0.1:${(smsServer.address() as AddressInfo).port}/sms`;
    t = await startClaimsTestService({ SMS_WEBHOOK_URL: smsUrl, PUBLIC_BASE_URL: OWN_BASE_URL });
  });
  afterAll(async () => {
    await t?.stop();
    await new Promise((resolve) => smsServer?.close(resolve));
  });

  const newClaim = (fields: TestClaimFields = {}) => insertTestClaim(t.db, fields);
  const post = async (claimId: string, body: unknown, auth?: string) =>
    request(t.url)
      .post(`/api/claims/claims/${claimId}/status-updates`)
      .set('Authorization', auth ?? (await as.writer()))
      .send(body as object);
  /** Closes a claim as paid through POST …/closing (as claims:decide unless `auth` says otherwise). */
  const close = async (claimId: string, auth?: string) => {
    await arrangePaidClaim(t.db, claimId);
    return request(t.url)
      .post(`/api/claims/claims/${claimId}/closing`)
      .set('Authorization', auth ?? (await as.decider()))
      .send({ reason: 'paid', status_update: update({ stage: 'closed', expected_next_update_by: null }) });
  };
  const stageOf = async (claimId: string) => (await t.db('claims').where({ id: claimId }).first('stage')).stage;
  const countUpdates = async (claimId: string) =>
    Number((await t.db('status_updates').where({ claim_id: claimId }).count({ n: '*' }))[0].n);
  const eventsOf = (type: string, claimId: string) =>
    t.events.received.filter((e) => e.routingKey === type && e.body.data.claim_id === claimId);

  describe('refusals leave nothing behind', () => {
    it('refuses adequacy fields sent by the caller (400)', async () => {
      const claim = await newClaim({ stage: 'triage' });
      for (const computed of [{ adequacy_score: 1 }, { adequacy_missing: [] }]) {
        const response = await post(claim.claim_id, update(computed));
        expect(response.status).toBe(400);
        expect(response.body.errors[0].pointer).toBe(`/${Object.keys(computed)[0]}`);
      }
      expect(await countUpdates(claim.claim_id)).toBe(0);
    });

    it('refuses past or impossible promise dates, http URLs, bad phones and emails (400)', async () => {
      const claim = await newClaim({ stage: 'triage' });
      const bad = [
        { expected_next_update_by: daysAgo(1) },
        { expected_next_update_by: '2027-02-30' },
        { portal_url: 'http://portal.example/claims/1' },
        { cta: { label: 'Upload photos', url: 'http://upload.example' }, what_we_need_from_you: 'Photos' },
        { contact: { phone: '4155550199', email: 'ann@insurer.example' } },
        { contact: { phone: '+14155550199', email: 'not-an-email' } },
        { channel: 'fax' },
        { what_happened: '' },
      ];
      for (const overrides of bad) expect((await post(claim.claim_id, update(overrides))).status).toBe(400);
      const missing = update();
      delete missing.what_happens_next;
      expect((await post(claim.claim_id, missing)).status).toBe(400);
      expect(await countUpdates(claim.claim_id)).toBe(0);
    });

    it('takes back an http link on the platform’s own PUBLIC_BASE_URL origin; on another origin it names the field (400)', async () => {
      const claim = await newClaim({ stage: 'triage' });
      const own = `${OWN_BASE_URL}/portal/claims/${claim.claim_id}`;
      const sent = await post(
        claim.claim_id,
        update({ portal_url: own, cta: { label: 'Upload photos', url: `${own}#upload` }, what_we_need_from_you: 'Photos' }),
      );
      expect(sent.status).toBe(201);
      expect(sent.body.portal_url).toBe(own);
      const refused = await post(claim.claim_id, update({ portal_url: 'http://elsewhere.example/claims/1' }));
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([{ pointer: '/portal_url', message: expect.stringContaining('https') }]);
      expect(await countUpdates(claim.claim_id)).toBe(1);
    });

    it('refuses a body claim_id naming another claim (422), unknown claims (404), readers (403), non-JSON (415)', async () => {
      const claim = await newClaim({ stage: 'triage' });
      const other = await newClaim();
      expect((await post(claim.claim_id, update({ claim_id: other.claim_id }))).status).toBe(422);
      expect((await post('6a1f7c2e-0000-4000-8000-000000000000', update())).status).toBe(404);
      expect((await post(claim.claim_id, update(), await as.reader())).status).toBe(403);
      const text = await request(t.url)
        .post(`/api/claims/claims/${claim.claim_id}/status-updates`)
        .set('Authorization', await as.writer())
        .set('Content-Type', 'text/plain')
        .send('hi');
      expect(text.status).toBe(415);
      expect(await countUpdates(claim.claim_id)).toBe(0);
    });

    it('refuses stages the lifecycle forbids (409)', async () => {
      const atIntake = await newClaim();
      for (const stage of ['assigned', 'inspection', 'settlement']) {
        expect((await post(atIntake.claim_id, update({ stage }), await as.decider())).status).toBe(409);
      }
      const assigned = await newClaim({ stage: 'assigned' });
      expect((await post(assigned.claim_id, update({ stage: 'triage' }))).status).toBe(409);
      expect((await post(assigned.claim_id, update({ stage: 'settlement' }), await as.decider())).status).toBe(409);
      expect(await stageOf(atIntake.claim_id)).toBe('intake');
      expect((await countUpdates(atIntake.claim_id)) + (await countUpdates(assigned.claim_id))).toBe(0);
    });

    it('refuses to move a claim out of triage while its escalation is open (409): only the decision routes it', async () => {
      const claim = await newClaim({ injuries: true });
      const triage = await request(t.url)
        .post(`/api/claims/claims/${claim.claim_id}/run-triage`)
        .set('Authorization', await as.writer())
        .expect(201);
      const response = await post(claim.claim_id, update({ stage: 'assigned' }), await as.decider());
      expect(response.status).toBe(409);
      expect(response.body.escalation_id).toBe(triage.body.escalation_id);
      expect((await post(claim.claim_id, update({ stage: 'triage' }))).status).toBe(201);
      expect(await stageOf(claim.claim_id)).toBe('triage');
    });

    it('refuses to close a claim while an escalation is open (409)', async () => {
      const claim = await newClaim({ stage: 'settlement', injuries: true });
      const triage = await request(t.url)
        .post(`/api/claims/claims/${claim.claim_id}/run-triage`)
        .set('Authorization', await as.writer())
        .expect(201);
      expect(await stageOf(claim.claim_id)).toBe('settlement');
      const response = await close(claim.claim_id);
      expect(response.status).toBe(409);
      expect(response.body.escalation_id).toBe(triage.body.escalation_id);
      expect(await stageOf(claim.claim_id)).toBe('settlement');
    });

    it('refuses settlement and closing without claims:decide (403)', async () => {
      const claim = await newClaim({ stage: 'estimate' });
      const response = await post(claim.claim_id, update({ stage: 'settlement' }));
      expect(response.status).toBe(403);
      expect(response.body.detail).toMatch(/claims:decide/);
      const settling = await newClaim({ stage: 'settlement' });
      expect((await close(settling.claim_id, await as.writer())).status).toBe(403);
      expect(await stageOf(claim.claim_id)).toBe('estimate');
    });

    it('refuses updates to a closed claim (409) and reopening without claims:decide (403)', async () => {
      const claim = await newClaim({ stage: 'closed' });
      expect((await close(claim.claim_id)).status).toBe(409);
      expect((await post(claim.claim_id, update({ stage: 'closed' }), await as.decider())).status).toBe(409);
      expect((await post(claim.claim_id, update({ stage: 'triage' }), await as.decider())).status).toBe(409);
      expect((await post(claim.claim_id, update({ stage: 'assigned' }))).status).toBe(403);
      expect(await stageOf(claim.claim_id)).toBe('closed');
      expect(await countUpdates(claim.claim_id)).toBe(0);
    });
  });

  it('stores the update with computed adequacy, moves the stage, answers 201 with Location and exactly the thirteen fields', async () => {
    const claim = await newClaim({ stage: 'triage' });
    const response = await post(claim.claim_id, update({ claim_id: claim.claim_id, language: 'en-us' }));
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(THIRTEEN);
    expect(compile(statusUpdateSchema)(response.body)).toBe(true);
    expect(response.body).toMatchObject({
      claim_id: claim.claim_id,
      stage: 'assigned',
      language: 'en-US',
      adequacy_score: 1,
      adequacy_missing: [],
      cta: null,
      portal_url: null,
    });
    expect(response.headers.location).toMatch(new RegExp(`^/api/claims/claims/${claim.claim_id}/status-updates/[0-9a-f-]{36}$`));
    const fetched = await request(t.url)
      .get(response.headers.location)
      .set('Authorization', await as.reader())
      .expect(200);
    expect(fetched.body).toEqual(response.body);
    const row = await t.db('claims').where({ id: claim.claim_id }).first('stage', 'next_update_due');
    expect(row.stage).toBe('assigned');
    expect(new Date(row.next_update_due).toISOString()).toBe(`${daysAhead(4)}T00:00:00.000Z`);
    const [audit] = await t.db('claim_audit').where({ claim_id: claim.claim_id, action: 'claim.status_updated' });
    expect(audit.actor).toBe('adjuster-ann');
  });

  it('computes adequacy from what the update gives the customer', async () => {
    const claim = await newClaim({ stage: 'assigned' });
    const sparse = await post(claim.claim_id, {
      channel: 'portal',
      stage: 'waiting_on_customer',
      what_happened: 'We looked at your photos',
      what_happens_next: 'We need one more',
      what_we_need_from_you: 'A photo of the rear bumper',
    });
    expect(sparse.status).toBe(201);
    // applicable: expected_next_update_by 3, cta 2, contact 2, portal_url 1, language 1 = 9; given: none
    expect(sparse.body).toMatchObject({
      adequacy_score: 0,
      adequacy_missing: ['expected_next_update_by', 'cta', 'contact', 'portal_url', 'language'],
    });
    const partial = await post(
      claim.claim_id,
      update({ channel: 'portal', stage: 'waiting_on_customer', what_we_need_from_you: 'A photo', contact: null }),
    );
    // given: expected_next_update_by 3 + language 1 of 9
    expect(partial.body).toMatchObject({ adequacy_score: 0.44, adequacy_missing: ['cta', 'contact', 'portal_url'] });
    expect((await t.db('claims').where({ id: claim.claim_id }).first('next_update_due')).next_update_due).not.toBeNull();
  });

  it('lets claims:decide settle, close and reopen a claim', async () => {
    const claim = await newClaim({ stage: 'estimate' });
    expect((await post(claim.claim_id, update({ stage: 'settlement' }), await as.decider())).status).toBe(201);
    expect((await close(claim.claim_id)).status).toBe(201);
    expect(await t.db('claims').where({ id: claim.claim_id }).first('stage', 'next_update_due')).toEqual({
      stage: 'closed',
      next_update_due: null,
    });
    const reopened = await post(claim.claim_id, update({ stage: 'inspection' }), await as.decider());
    expect(reopened.status).toBe(201);
    expect(await stageOf(claim.claim_id)).toBe('inspection');
    await t.events.waitFor(() => eventsOf('claim.status_updated', claim.claim_id).length >= 3);
    expect(eventsOf('claim.status_updated', claim.claim_id).map((e) => e.body.data.transition)).toEqual(['advance', 'advance', 'reopen']);
  });

  it('lets a caller holding only claims:decide settle and close, but not post other updates (403 without claims:write)', async () => {
    const onlyDecide = await bearer('claims:decide', 'lead-only-decide');
    const claim = await newClaim({ stage: 'estimate' });
    const inspection = await post(claim.claim_id, update({ stage: 'inspection' }), onlyDecide);
    expect(inspection.status).toBe(403);
    expect(inspection.body.detail).toMatch(/claims:write/);
    expect((await post(claim.claim_id, update({ stage: 'settlement' }), onlyDecide)).status).toBe(201);
    expect((await close(claim.claim_id, onlyDecide)).status).toBe(201);
    expect(await stageOf(claim.claim_id)).toBe('closed');
  });

  it('publishes claim.status_updated once per update, without personal data', async () => {
    const claim = await newClaim({ stage: 'assigned' });
    const response = await post(claim.claim_id, update({ stage: 'inspection' }));
    await t.events.waitFor(() => eventsOf('claim.status_updated', claim.claim_id).length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const events = eventsOf('claim.status_updated', claim.claim_id);
    expect(events).toHaveLength(1);
    expect(events[0].body.data).toMatchObject({
      previous_stage: 'assigned',
      stage: 'inspection',
      channel: 'email',
      adequacy_score: response.body.adequacy_score,
    });
    expect(JSON.stringify(events[0].body)).not.toMatch(/Ana Ruiz|ana\.|\+1415|ann@insurer|adjuster calls you/);
  });

  it('queues deliveries: portal delivered at once, email logged without SMTP, SMS posted to the webhook', async () => {
    const claim = await newClaim({ stage: 'assigned' });
    const portal = await post(claim.claim_id, update({ stage: 'assigned', channel: 'portal', portal_url: 'https://portal.example/c/1' }));
    const email = await post(claim.claim_id, update({ stage: 'assigned', channel: 'email' }));
    const sms = await post(claim.claim_id, update({ stage: 'assigned', channel: 'sms' }));
    const idOf = (response: request.Response) => response.headers.location.split('/').pop();
    const statusOf = async (response: request.Response) =>
      (
        await t
          .db('deliveries')
          .where({ update_id: idOf(response) })
          .first()
      )?.status;
    expect(await statusOf(portal)).toBe('delivered');
    await eventually(async () => (await statusOf(email)) === 'logged');
    await eventually(async () => (await statusOf(sms)) === 'sent');
    const phone = (await t.db('claims').where({ id: claim.claim_id }).first('claimant_phone')).claimant_phone;
    expect(smsReceived.find((message) => message.reference === idOf(sms))).toMatchObject({
      to: phone,
      body: expect.stringContaining('The adjuster calls you'),
    });
  });

  it('retries a failing SMS delivery with backoff and marks it failed after the last attempt', async () => {
    const claim = await newClaim({ stage: 'assigned', phone: FAILING_PHONE });
    const response = await post(claim.claim_id, update({ stage: 'assigned', channel: 'sms' }));
    const updateId = response.headers.location.split('/').pop();
    const delivery = () => t.db('deliveries').where({ update_id: updateId }).first();
    const retrying = await eventually(async () => {
      const row = await delivery();
      return row.attempts >= 1 && row.last_error ? row : undefined;
    });
    expect(retrying).toMatchObject({ status: 'pending', last_error: 'SMS webhook answered 500' });
    expect(new Date(retrying.next_attempt_at).getTime()).toBeGreaterThan(Date.now());
    await t
      .db('deliveries')
      .where({ update_id: updateId })
      .update({ attempts: DELIVERY_MAX_ATTEMPTS - 1, next_attempt_at: new Date() });
    const failed = await eventually(async () => ((await delivery()).status === 'failed' ? delivery() : undefined));
    expect(failed).toMatchObject({ attempts: DELIVERY_MAX_ATTEMPTS, last_error: 'SMS webhook answered 500' });
  });

  it('refuses a channel the claimant has no contact for (422)', async () => {
    const claim = await newClaim({ stage: 'assigned', phone: null });
    expect((await post(claim.claim_id, update({ stage: 'assigned', channel: 'sms' }))).status).toBe(422);
    expect(await countUpdates(claim.claim_id)).toBe(0);
  });
});
