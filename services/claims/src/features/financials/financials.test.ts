import request from 'supertest';
import { compile } from '@platform/http';
import { bearer } from '@platform/testing';
import { countRows, startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { insertTestClaim } from '../../testing/workflow-fixtures';
import { financialsSchema, paymentSchema, reserveChangeSchema } from './financials-schemas';

const LIMITS = 'claims:write=5000,claims:decide=50000,user:Lead-Lou=9999999999999999.99';
const usd = (amount: string) => ({ amount, currency: 'USD' });
const validFinancials = compile(financialsSchema);
const validPayment = compile(paymentSchema);

describe('reserves and payments with authority limits', () => {
  let t: ClaimsTestService;
  const as = {
    ann: () => bearer('claims:read claims:write', 'adjuster-ann'),
    bob: () => bearer('claims:read claims:write', 'adjuster-bob'),
    lead: () => bearer('claims:read claims:write claims:decide', 'supervisor-sam'),
    lou: (sub = 'Lead-Lou') => bearer('claims:read claims:write claims:decide', sub),
    reader: () => bearer('claims:read', 'viewer-vic'),
    bearerOf: (sub: string) => bearer('claims:read claims:write', sub),
  };

  beforeAll(async () => {
    t = await startClaimsTestService({ PAYMENT_AUTHORITY_LIMITS: LIMITS });
  });
  afterAll(async () => {
    await t?.stop();
  });

  const claim = async () => (await insertTestClaim(t.db, { stage: 'estimate' })).claim_id;
  let ann = '';
  beforeAll(async () => {
    ann = await as.ann();
  });
  const reserve = (claimId: string, body: object, auth?: string) =>
    request(t.url)
      .post(`/api/claims/claims/${claimId}/reserves`)
      .set('Authorization', auth ?? ann)
      .send(body);
  const pay = (claimId: string, body: object, auth?: string) =>
    request(t.url)
      .post(`/api/claims/claims/${claimId}/payments`)
      .set('Authorization', auth ?? ann)
      .send({ cost_category: 'indemnity', payee: { name: 'Ana Ruiz', kind: 'claimant' }, method: 'eft', memo: 'Settlement', ...body });
  const decide = (claimId: string, paymentId: string, body: object, auth: string) =>
    request(t.url).post(`/api/claims/claims/${claimId}/payments/${paymentId}/decision`).set('Authorization', auth).send(body);
  const financials = async (claimId: string, auth?: string) => {
    const response = await request(t.url)
      .get(`/api/claims/claims/${claimId}/financials`)
      .set('Authorization', auth ?? (await as.reader()))
      .expect(200);
    expect(validFinancials(response.body)).toBe(true);
    return response.body;
  };

  it('sets a reserve as an appended change (from → to, who, why) and reads the figures per category and in total', async () => {
    const id = await claim();
    const first = await reserve(id, { cost_category: 'indemnity', amount: usd('1000.10'), reason: 'Estimate' }).expect(201);
    expect(compile(reserveChangeSchema)(first.body)).toBe(true);
    expect(first.body).toMatchObject({ previous_open: usd('0.00'), open: usd('1000.10'), actor: 'adjuster-ann', cause: 'set' });
    await reserve(id, { cost_category: 'indemnity', amount: usd('1200'), reason: 'Supplement' }).expect(201);
    await reserve(id, { cost_category: 'expense', amount: usd('0.20'), reason: 'Appraiser' }).expect(201);
    const rows = await t
      .db('reserve_changes')
      .where({ claim_id: id })
      .orderBy('seq')
      .select('cost_category', 'previous_open', 'open', 'reason');
    expect(rows).toEqual([
      { cost_category: 'indemnity', previous_open: '0.00', open: '1000.10', reason: 'Estimate' },
      { cost_category: 'indemnity', previous_open: '1000.10', open: '1200.00', reason: 'Supplement' },
      { cost_category: 'expense', previous_open: '0.00', open: '0.20', reason: 'Appraiser' },
    ]);
    await expect(t.db('reserve_changes').where({ claim_id: id }).update({ reason: 'x' })).rejects.toThrow(/append-only/);
    await pay(id, { amount: usd('200.10') }).expect(201);
    const figures = await financials(id, await as.ann());
    expect(figures.categories.indemnity).toEqual({
      reserve: usd('1200.00'),
      paid: usd('200.10'),
      awaiting_approval: usd('0.00'),
      outstanding: usd('999.90'),
      incurred: usd('1200.00'),
    });
    expect(figures.totals).toMatchObject({ reserve: usd('1200.20'), paid: usd('200.10'), outstanding: usd('1000.10') });
    expect(figures.authority_limit).toEqual(usd('5000.00'));
  });

  it('keeps money exact at 99999999999999.99 and refuses more decimals, numbers and negative amounts (400, nothing written)', async () => {
    const id = await claim();
    await reserve(id, { cost_category: 'indemnity', amount: usd('99999999999999.99'), reason: 'Top' }, await as.lou()).expect(201);
    const big = await pay(id, { amount: usd('99999999999999.98') }, await as.lou()).expect(201);
    expect(big.body).toMatchObject({ status: 'approved', amount: usd('99999999999999.98') });
    await pay(id, { cost_category: 'indemnity', amount: usd('0.01') }, await as.lou()).expect(201);
    expect((await financials(id)).categories.indemnity).toMatchObject({ paid: usd('99999999999999.99'), outstanding: usd('0.00') });
    const before = await countRows(t.db);
    for (const amount of ['1.001', '0.1e2', '-5', '1,00', '']) {
      const refused = await reserve(id, { cost_category: 'indemnity', amount: usd(amount), reason: 'x' }).expect(400);
      expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
      await pay(id, { amount: usd(amount) }).expect(400);
    }
    await reserve(id, { cost_category: 'indemnity', amount: { amount: 10.5, currency: 'USD' }, reason: 'x' }).expect(400);
    await pay(id, { amount: usd('0.00') }).expect(400);
    await reserve(id, { cost_category: 'indemnity', amount: { amount: '1', currency: 'usd' }, reason: 'x' }).expect(400);
    expect(await countRows(t.db)).toEqual(before);
  });

  it('refuses a payment beyond the open reserve of its category with 409 (awaiting approval counts against it)', async () => {
    const id = await claim();
    await pay(id, { amount: usd('1.00') }).expect(409);
    await reserve(id, { cost_category: 'indemnity', amount: usd('6000'), reason: 'Estimate' }).expect(201);
    const over = await pay(id, { amount: usd('6000.01') }).expect(409);
    expect(over.body.detail).toMatch(/raise the reserve/);
    await pay(id, { cost_category: 'expense', amount: usd('1.00') }).expect(409);
    await pay(id, { amount: usd('5500') }).expect(201); // awaiting approval
    await pay(id, { amount: usd('500.01') }).expect(409);
    await pay(id, { amount: usd('500.00') }).expect(201);
    await reserve(id, { cost_category: 'indemnity', amount: usd('1'), reason: 'x' }).expect(201);
    expect((await financials(id)).categories.indemnity).toEqual({
      reserve: usd('6001.00'),
      paid: usd('500.00'),
      awaiting_approval: usd('5500.00'),
      outstanding: usd('1.00'),
      incurred: usd('501.00'),
    });
    await reserve(id, { cost_category: 'indemnity', amount: usd('1'), reason: 'x' }, await as.reader()).expect(403);
    await reserve(id, { cost_category: 'indemnity', amount: { amount: '1', currency: 'EUR' }, reason: 'x' }).expect(422);
  });

  it('approves within the limit at once; above it waits for someone else whose limit covers it, with a rationale', async () => {
    const id = await claim();
    await reserve(id, { cost_category: 'indemnity', amount: usd('100000'), reason: 'Total loss' }).expect(201);
    const within = await pay(id, { amount: usd('5000.00') }).expect(201);
    expect(validPayment(within.body)).toBe(true);
    expect(within.body).toMatchObject({
      status: 'approved',
      authority_limit: usd('5000.00'),
      decision: { decided_by: 'adjuster-ann', rationale: null },
    });
    const above = await pay(id, { amount: usd('5000.01') }).expect(201);
    expect(above.body).toMatchObject({ status: 'awaiting_approval', decision: null });
    const paymentId = above.body.payment_id as string;

    await decide(id, paymentId, { decision: 'rejected' }, await as.lead()).expect(400);
    await decide(id, paymentId, { decision: 'rejected', rationale: '   ' }, await as.lead()).expect(400);
    // a peer with the same limit cannot approve it either
    await decide(id, paymentId, { decision: 'approved', rationale: 'Fine' }, await as.bob()).expect(403);
    expect((await t.db('payments').where({ id: paymentId }).first('status')).status).toBe('awaiting_approval');
    const approved = await decide(id, paymentId, { decision: 'approved', rationale: 'Invoice matches' }, await as.lead()).expect(200);
    expect(approved.body).toMatchObject({
      status: 'approved',
      decision: { decision: 'approved', decided_by: 'supervisor-sam', rationale: 'Invoice matches' },
    });
    await decide(id, paymentId, { decision: 'rejected', rationale: 'Again' }, await as.lead()).expect(409);

    const rejectedOne = await pay(id, { amount: usd('6000') }).expect(201);
    const rejected = await decide(
      id,
      rejectedOne.body.payment_id,
      { decision: 'rejected', rationale: 'No invoice' },
      await as.lead(),
    ).expect(200);
    expect(rejected.body.status).toBe('rejected');
    expect((await financials(id)).categories.indemnity).toMatchObject({ paid: usd('10000.01'), awaiting_approval: usd('0.00') });
  });

  it('refuses self-approval with 403, whatever the case, whitespace or accents of the subject', async () => {
    const id = await claim();
    await reserve(id, { cost_category: 'indemnity', amount: usd('99999999999999.99'), reason: 'Top' }, await as.lou()).expect(201);
    // PAYMENT_AUTHORITY_LIMITS gives supervisor-sam 50000: his own 60000 waits
    const own = await pay(id, { amount: usd('60000') }, await as.lead()).expect(201);
    expect(own.body.status).toBe('awaiting_approval');
    for (const sub of ['supervisor-sam', 'SUPERVISOR-SAM', ' supervisor-sam ', 'Supervisor-Sam\t', 'supervisor-sám', 'ｓupervisor-sam']) {
      const response = await decide(id, own.body.payment_id, { decision: 'approved', rationale: 'Mine' }, await as.lou(sub)).expect(403);
      // refused as the requester (checked before the limit), not for the amount
      expect(response.body.detail).toMatch(/You requested this payment/);
    }
    // user:Lead-Lou's limit covers it; another spelling of the requester is still refused
    const lous = await pay(id, { amount: usd('60000') }, await as.lou()).expect(201);
    expect(lous.body.status).toBe('approved');
    const leads = await pay(id, { amount: usd('70000') }, await as.lou(' lead-lou')).expect(201);
    expect(leads.body.status).toBe('awaiting_approval'); // ' lead-lou' is no entry of the limits: the scope's 50000
    const self = await decide(id, leads.body.payment_id, { decision: 'approved', rationale: 'Mine' }, await as.lou()).expect(403);
    expect(self.body.detail).toMatch(/You requested this payment/);
    await decide(id, own.body.payment_id, { decision: 'approved', rationale: 'Checked' }, await as.lou()).expect(200);
    const events = (await t.db('claim_audit').where({ claim_id: id, action: 'claim.payment_decided' }).select('actor')).map((r) => r.actor);
    expect(events).toEqual(['Lead-Lou']);
  });

  it('voids an approved or awaiting payment before it is issued, returning its amount to the reserve; twice is 409', async () => {
    const id = await claim();
    await reserve(id, { cost_category: 'expense', amount: usd('300'), reason: 'Appraiser' }).expect(201);
    const paid = await pay(id, { cost_category: 'expense', amount: usd('300'), payee: { name: 'Acme Appraisals', kind: 'vendor' } }).expect(
      201,
    );
    const path = `/api/claims/claims/${id}/payments/${paid.body.payment_id}/void`;
    await request(t.url)
      .post(path)
      .set('Authorization', await as.ann())
      .send({})
      .expect(400);
    const voided = await request(t.url)
      .post(path)
      .set('Authorization', await as.ann())
      .send({ reason: 'Duplicate' })
      .expect(200);
    expect(voided.body).toMatchObject({ status: 'voided', void: { voided_by: 'adjuster-ann', reason: 'Duplicate' } });
    await request(t.url)
      .post(path)
      .set('Authorization', await as.ann())
      .send({ reason: 'Again' })
      .expect(409);
    expect((await financials(id)).categories.expense).toMatchObject({ paid: usd('0.00'), outstanding: usd('300.00') });
  });

  it('publishes the four events as documented, with amounts and categories and no payee, memo or rationale', async () => {
    const id = await claim();
    await reserve(id, { cost_category: 'indemnity', amount: usd('9000'), reason: 'Estimate' }).expect(201);
    const above = await pay(id, { amount: usd('8000') }).expect(201);
    await decide(id, above.body.payment_id, { decision: 'approved', rationale: 'Secret rationale' }, await as.lead()).expect(200);
    await request(t.url)
      .post(`/api/claims/claims/${id}/payments/${above.body.payment_id}/void`)
      .set('Authorization', await as.ann())
      .send({ reason: 'Wrong account' })
      .expect(200);
    const kinds = ['claim.reserve_changed', 'claim.payment_requested', 'claim.payment_decided', 'claim.payment_voided'];
    const ofClaim = (received: typeof t.events.received) => received.filter((e) => e.body.subject === id && kinds.includes(e.routingKey));
    const events = ofClaim(await t.events.waitFor((received) => ofClaim(received).length >= 4));
    expect(events.map((e) => e.routingKey)).toEqual(kinds);
    expect(events[1].body.data).toEqual({
      claim_id: id,
      actor: 'adjuster-ann',
      payment_id: above.body.payment_id,
      cost_category: 'indemnity',
      amount: usd('8000.00'),
      payee_kind: 'claimant',
      status: 'awaiting_approval',
    });
    const text = JSON.stringify(events.map((e) => e.body));
    for (const secret of ['Ana Ruiz', 'Settlement', 'Secret rationale']) expect(text).not.toContain(secret);
  });

  const close = async (claimId: string, reason: string) =>
    request(t.url)
      .post(`/api/claims/claims/${claimId}/closing`)
      .set('Authorization', await as.lead())
      .send({
        reason,
        ...(reason === 'denied' ? { rationale: 'Not covered' } : {}),
        status_update: {
          channel: 'email',
          stage: 'closed',
          what_happened: 'We made a decision on your claim',
          what_happens_next: 'Nothing more is needed from you',
          what_we_need_from_you: null,
          contact: { phone: '+14155550199', email: 'sam@insurer.example' },
          language: 'en',
        },
      });
  const stageOf = async (claimId: string) => (await t.db('claims').where({ id: claimId }).first('stage')).stage;

  it('refuses to close as paid with nothing paid, or with a payment awaiting approval (409, claim left open)', async () => {
    const id = await claim();
    expect((await close(id, 'paid')).status).toBe(409);
    await reserve(id, { cost_category: 'indemnity', amount: usd('9000'), reason: 'Estimate' }).expect(201);
    const waiting = await pay(id, { amount: usd('8000') }).expect(201);
    const refused = await close(id, 'paid');
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/awaits approval/);
    expect((await close(id, 'denied')).status).toBe(409);
    expect(await stageOf(id)).toBe('estimate');
    await request(t.url)
      .post(`/api/claims/claims/${id}/payments/${waiting.body.payment_id}/void`)
      .set('Authorization', ann)
      .send({ reason: 'Wrong amount' })
      .expect(200);
    expect((await close(id, 'paid')).status).toBe(409); // a voided payment is nothing paid
    expect(Number((await t.db('status_updates').where({ claim_id: id }).count({ n: '*' }))[0].n)).toBe(0);
  });

  it('closes as paid once something is paid, zeroing the remaining reserves as recorded changes; then refuses writes', async () => {
    const id = await claim();
    await reserve(id, { cost_category: 'indemnity', amount: usd('9000'), reason: 'Estimate' }).expect(201);
    await reserve(id, { cost_category: 'expense', amount: usd('250.50'), reason: 'Appraiser' }).expect(201);
    await pay(id, { amount: usd('4000') }).expect(201);
    expect((await close(id, 'paid')).status).toBe(201);
    const closing = await t
      .db('reserve_changes')
      .where({ claim_id: id, cause: 'closing' })
      .orderBy('seq')
      .select('cost_category', 'previous_open', 'open', 'actor');
    expect(closing).toEqual([
      { cost_category: 'indemnity', previous_open: '5000.00', open: '0.00', actor: 'supervisor-sam' },
      { cost_category: 'expense', previous_open: '250.50', open: '0.00', actor: 'supervisor-sam' },
    ]);
    expect((await financials(id)).totals).toEqual({
      reserve: usd('4000.00'),
      paid: usd('4000.00'),
      awaiting_approval: usd('0.00'),
      outstanding: usd('0.00'),
      incurred: usd('4000.00'),
    });
    const audit = await t.db('claim_audit').where({ claim_id: id, action: 'claim.reserve_changed' }).count({ n: '*' });
    expect(Number(audit[0].n)).toBe(4);
    await reserve(id, { cost_category: 'indemnity', amount: usd('1'), reason: 'x' }).expect(409);
    await pay(id, { amount: usd('1') }).expect(409);
  });

  it('lists payments awaiting approval across claims, saying who may decide each and why not, cursor-paged', async () => {
    const id = await claim();
    await reserve(id, { cost_category: 'indemnity', amount: usd('50000'), reason: 'Estimate' }).expect(201);
    const waiting = await pay(id, { amount: usd('7000') }).expect(201);
    const queue = async (auth: string) => {
      const items: { payment: { payment_id: string }; you_may_decide: boolean; why_not: string | null }[] = [];
      let cursor: string | null = null;
      do {
        const page: request.Response = await request(t.url)
          .get(`/api/claims/payments/awaiting-approval?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
          .set('Authorization', auth)
          .expect(200);
        items.push(...page.body.items);
        cursor = page.body.next_cursor;
      } while (cursor);
      return items.find((item) => item.payment.payment_id === waiting.body.payment_id);
    };
    expect(await queue(await as.bearerOf('ADJUSTER-ANN'))).toMatchObject({
      you_may_decide: false,
      why_not: expect.stringMatching(/You requested/),
    });
    expect(await queue(await as.bob())).toMatchObject({ you_may_decide: false, why_not: expect.stringMatching(/higher limit/) });
    expect(await queue(await as.lead())).toMatchObject({ you_may_decide: true, why_not: null });
    await decide(id, waiting.body.payment_id, { decision: 'approved', rationale: 'OK' }, await as.lead()).expect(200);
    expect(await queue(await as.lead())).toBeUndefined();
    await request(t.url).get('/api/claims/payments/awaiting-approval?cursor=bogus').set('Authorization', ann).expect(400);
    await request(t.url)
      .get('/api/claims/payments/awaiting-approval')
      .set('Authorization', await as.reader())
      .expect(403);
  });

  it('answers 404 for an unknown claim or payment and 401 without credentials', async () => {
    const id = await claim();
    await request(t.url).get(`/api/claims/claims/${id}/financials`).expect(401);
    await financials(id);
    await request(t.url)
      .get('/api/claims/claims/2b1f0d5e-1111-4111-8111-111111111111/financials')
      .set('Authorization', await as.reader())
      .expect(404);
    await decide(id, '2b1f0d5e-1111-4111-8111-111111111111', { decision: 'approved', rationale: 'x' }, await as.lead()).expect(404);
    await decide(id, 'nope', { decision: 'approved', rationale: 'x' }, await as.lead()).expect(404);
  });
});
