import request from 'supertest';
import { eventually } from '@platform/testing';
import { fileClaim, startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { startSmtpTestServer } from '../../testing/smtp-test-server';
import { ACCESS_LINK_ACCEPTED } from './access-links-schemas';
import { normaliseE164 } from './access-links-service';

const BASE = 'https://claims.insurer.example';

describe('POST /api/claims/public/access-links', () => {
  let t: ClaimsTestService;
  let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
  let address = 0;

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    t = await startClaimsTestService({
      SMTP_URL: smtp.url,
      PUBLIC_BASE_URL: BASE,
      ACCESS_LINK_LIMIT_PER_ADDRESS: '4',
      ACCESS_LINK_LIMIT_PER_CLAIM: '2',
    });
  });
  afterAll(async () => {
    await t?.stop();
    await smtp?.close();
  });

  /** Each call from its own client address unless one is given, so only the limit under test is reached. */
  const ask = (body: Record<string, unknown>, from = `198.51.100.${++address}`) =>
    request(t.url).post('/api/claims/public/access-links').set('X-Forwarded-For', from).send(body);
  const linksOf = (claimId: string) => t.db('deliveries').where({ claim_id: claimId, kind: 'access_link' });
  const mailTo = (email: string) => smtp.received.filter((mail) => mail.to.includes(email));
  const statusWith = (claimId: string, token: string) =>
    request(t.url).get(`/api/claims/public/claims/${claimId}/status`).set('Authorization', `Bearer ${token}`);

  it('sends a new link by email when the claim number and email match (any case), and the old token stops working', async () => {
    const claim = await fileClaim(t.url, { claimant: { name: 'Ana Ruiz', email: 'ana.link@example.com' } });
    const answer = await ask({ claim_number: claim.claim_number.toLowerCase(), email: 'Ana.Link@Example.COM' }).expect(202);
    expect(answer.body).toEqual(ACCESS_LINK_ACCEPTED);

    const mail = await eventually(async () => mailTo('ana.link@example.com').find((received) => received.text.includes('#token=')));
    const token = new RegExp(`${BASE}/portal/claims/${claim.claim_id}#token=([A-Za-z0-9_-]{43})\\s`).exec(mail.text)?.[1];
    expect(token).toBeDefined();
    await eventually(async () => (await linksOf(claim.claim_id).first('status'))?.status === 'sent');
    await statusWith(claim.claim_id, token!).expect(200);
    await statusWith(claim.claim_id, claim.access_token).expect(404);
    expect(await t.db('claim_audit').where({ claim_id: claim.claim_id, action: 'access_link_sent' }).count({ n: '*' })).toEqual([
      { n: '1' },
    ]);
  });

  it('matches a phone written another way and queues the link by SMS', async () => {
    const claim = await fileClaim(t.url, { claimant: { name: 'Ana Ruiz', phone: '+14155550123' }, preferred_channel: 'sms' });
    await ask({ claim_number: claim.claim_number, phone: '001 (415) 555-0123' }).expect(202);
    const link = await eventually(async () => linksOf(claim.claim_id).first('channel', 'update_id'));
    expect(link).toEqual({ channel: 'sms', update_id: null });
  });

  it('answers the same 202 for an unknown claim, a wrong email and a wrong phone, and sends nothing', async () => {
    const claim = await fileClaim(t.url, { claimant: { name: 'Ana Ruiz', email: 'ana.quiet@example.com', phone: '+14155550124' } });
    const answers = [
      await ask({ claim_number: 'CLM-1999-999999', email: 'ana.quiet@example.com' }).expect(202),
      await ask({ claim_number: claim.claim_number, email: 'someone.else@example.com' }),
      await ask({ claim_number: claim.claim_number, phone: '+14155550999' }),
    ];
    for (const answer of answers) expect({ status: answer.status, body: answer.body }).toEqual({ status: 202, body: ACCESS_LINK_ACCEPTED });
    // a matching request for another claim, matched after the ones above (one after another), shows they are done
    const other = await fileClaim(t.url, { claimant: { name: 'Ana Ruiz', email: 'ana.other@example.com' } });
    await ask({ claim_number: other.claim_number, email: 'ana.other@example.com' }).expect(202);
    await eventually(async () => (await linksOf(other.claim_id)).length === 1);
    expect(await linksOf(claim.claim_id)).toEqual([]);
    await statusWith(claim.claim_id, claim.access_token).expect(200);
  });

  it('answers 400 for neither or both of email and phone, or an unknown field', async () => {
    for (const body of [
      { claim_number: 'CLM-2026-000001' },
      { claim_number: 'CLM-2026-000001', email: 'a@example.com', phone: '+14155550100' },
      { claim_number: 'x', email: 'a@example.com', name: 'Ana' },
    ]) {
      const answer = await ask(body).expect(400);
      expect(answer.headers['content-type']).toMatch(/application\/problem\+json/);
    }
  });

  it('limits requests per claim number, from any address, with 429 and Retry-After, whether or not the claim exists', async () => {
    for (const number of ['CLM-2026-777777', 'clm-2026-777777']) await ask({ claim_number: number, email: 'x@example.com' }).expect(202);
    const refused = await ask({ claim_number: 'CLM-2026-777777', email: 'x@example.com' }).expect(429);
    expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('limits requests per client address, and counts them in the database (shared by replicas)', async () => {
    const from = '203.0.113.9';
    for (let n = 1; n <= 4; n += 1) await ask({ claim_number: `CLM-2026-88888${n}`, email: 'x@example.com' }, from).expect(202);
    await ask({ claim_number: 'CLM-2026-888885', email: 'x@example.com' }, from).expect(429);
    const [{ hits }] = await t
      .db('rate_limit_windows')
      .where({ bucket: `access-links:address:${from}` })
      .select('hits');
    expect(hits).toBe(4);
  });
});

describe('normaliseE164', () => {
  it.each([
    ['+1 415 555 0100', '+14155550100'],
    ['0014155550100', '+14155550100'],
    ['+44 (20) 7946-0958', '+442079460958'],
    ['4155550100', null],
    ['+0123', null],
  ])('%s → %s', (input, expected) => {
    expect(normaliseE164(input)).toBe(expected);
  });
});

describe('new access links per claim per day', () => {
  let t: ClaimsTestService;
  beforeAll(async () => {
    t = await startClaimsTestService({ PUBLIC_BASE_URL: BASE, ACCESS_LINK_LIMIT_PER_CLAIM: '50', ACCESS_LINK_REISSUES_PER_DAY: '2' });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('are sent at most ACCESS_LINK_REISSUES_PER_DAY times, whoever asks; further requests are answered alike and send nothing', async () => {
    const claim = await fileClaim(t.url, { claimant: { name: 'Ana Ruiz', email: 'ana.cap@example.com' } });
    for (let i = 1; i <= 4; i += 1) {
      const answer = await request(t.url)
        .post('/api/claims/public/access-links')
        .set('X-Forwarded-For', `203.0.113.${i}`)
        .send({ claim_number: claim.claim_number, email: 'ana.cap@example.com' })
        .expect(202);
      expect(answer.body).toEqual(ACCESS_LINK_ACCEPTED);
    }
    await new Promise((resolve) => setTimeout(resolve, 500)); // matching runs after the answer
    expect(await t.db('deliveries').where({ claim_id: claim.claim_id, kind: 'access_link' })).toHaveLength(2);
  });
});
