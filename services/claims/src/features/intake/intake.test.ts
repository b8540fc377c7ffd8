import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { hashAccessToken } from '@platform/auth';
import { openText } from '@platform/privacy';
import { eventually, fnolBody } from '@platform/testing';
import { compile } from '@platform/http';
import { countRows, startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { startIdempotencyPurge } from './idempotency-purge';
import { intakeResponseSchema } from './intake-schemas';

const PATH = '/api/claims/public/claims';

describe('POST /api/claims/public/claims (first notice of loss)', () => {
  let t: ClaimsTestService;

  beforeAll(async () => {
    t = await startClaimsTestService();
  });
  afterAll(async () => {
    await t?.stop();
  });

  const post = (body: unknown, headers: Record<string, string> = {}) => {
    let call = request(t.url).post(PATH);
    for (const [name, value] of Object.entries(headers)) call = call.set(name, value);
    return call.send(body as object);
  };

  /** Runs a rejected request and shows it left no row and no event behind. */
  async function expectRejected(send: () => Promise<request.Response>, status: number) {
    const before = await countRows(t.db);
    const response = await send();
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(response.body.status).toBe(status);
    expect(await countRows(t.db)).toEqual(before);
    return response.body;
  }

  describe('rejects', () => {
    it('a body that is not application/json with 415', async () => {
      await expectRejected(() => request(t.url).post(PATH).set('Content-Type', 'text/plain').send('policy_number=1'), 415);
    });

    it('malformed JSON with 400', async () => {
      const body = await expectRejected(
        () => request(t.url).post(PATH).set('Content-Type', 'application/json').send('{"policy_number":'),
        400,
      );
      expect(body.type).toMatch(/malformed-json/);
    });

    it('a body over 1 MiB with 413', async () => {
      const big = fnolBody({ loss: { ...(fnolBody().loss as object), description: 'x'.repeat(1024 * 1024 + 10) } });
      await expectRejected(() => post(big), 413);
    });

    it('unknown fields, at the top and nested, with 400 naming them', async () => {
      const top = await expectRejected(() => post(fnolBody({ stage: 'closed' })), 400);
      expect(top.errors).toContainEqual({ pointer: '/stage', message: 'is not an accepted field' });
      const nested = await expectRejected(() => post(fnolBody({ claimant: { name: 'A', email: 'a@example.com', ssn: '1' } })), 400);
      expect(nested.errors).toContainEqual({ pointer: '/claimant/ssn', message: 'is not an accepted field' });
    });

    it('an impossible calendar date (2026-02-30) with 400', async () => {
      const body = await expectRejected(() => post(fnolBody({ loss: { ...(fnolBody().loss as object), date: '2026-02-30' } })), 400);
      expect(body.errors.map((e: { pointer: string }) => e.pointer)).toContain('/loss/date');
    });

    it('a loss date in year 0 with 400', async () => {
      await expectRejected(() => post(fnolBody({ loss: { ...(fnolBody().loss as object), date: '0000-01-01' } })), 400);
    });

    it('a loss date in the future with 400', async () => {
      const future = new Date(Date.now() + 3 * 86400_000).toISOString().slice(0, 10);
      const body = await expectRejected(() => post(fnolBody({ loss: { ...(fnolBody().loss as object), date: future } })), 400);
      expect(body.errors).toContainEqual({ pointer: '/loss/date', message: 'must not be in the future' });
    });

    it('a missing or over-long description with 400', async () => {
      await expectRejected(() => post(fnolBody({ loss: { ...(fnolBody().loss as object), description: '' } })), 400);
      await expectRejected(() => post(fnolBody({ loss: { ...(fnolBody().loss as object), description: 'x'.repeat(5001) } })), 400);
    });

    it('text PostgreSQL cannot store (a NUL character) or blank text with 400', async () => {
      await expectRejected(() => post(fnolBody({ loss: { ...(fnolBody().loss as object), description: 'bad\u0000byte' } })), 400);
      await expectRejected(() => post(fnolBody({ claimant: { name: '   ', email: 'a@example.com' } })), 400);
      await expectRejected(() => post(fnolBody({ loss: { ...(fnolBody().loss as object), location: { city: 'x\u0000' } } })), 400);
    });

    it('a claimant with neither email nor phone with 400', async () => {
      await expectRejected(() => post(fnolBody({ claimant: { name: 'Ana Ruiz' }, preferred_channel: 'portal' })), 400);
    });

    it('a preferred channel without its contact with 400 (sms needs a phone; email needs an email)', async () => {
      const sms = await expectRejected(
        () => post(fnolBody({ claimant: { name: 'Ana', email: 'ana@example.com' }, preferred_channel: 'sms' })),
        400,
      );
      expect(sms.errors).toContainEqual({ pointer: '/claimant/phone', message: 'is required for the sms channel' });
      const email = await expectRejected(
        () => post(fnolBody({ claimant: { name: 'Ana', phone: '+14155550100' }, preferred_channel: 'email' })),
        400,
      );
      expect(email.errors).toContainEqual({ pointer: '/claimant/email', message: 'is required for the email channel' });
    });

    it('an amount sent as a number, or with a float-like form, with 400', async () => {
      await expectRejected(() => post(fnolBody({ estimated_amount: { amount: 2500.5, currency: 'USD' } })), 400);
      await expectRejected(() => post(fnolBody({ estimated_amount: { amount: '1e3', currency: 'USD' } })), 400);
      await expectRejected(() => post(fnolBody({ estimated_amount: { amount: '-1.00', currency: 'USD' } })), 400);
    });

    it('a language that is not a BCP 47 tag with 400', async () => {
      await expectRejected(() => post(fnolBody({ language: 'english please' })), 400);
      await expectRejected(() => post(fnolBody({ language: 'x-' })), 400);
    });

    it('a malformed Idempotency-Key with 400', async () => {
      await expectRejected(() => post(fnolBody(), { 'Idempotency-Key': 'k'.repeat(256) }), 400);
      await expectRejected(() => post(fnolBody(), { 'Idempotency-Key': 'has space' }), 400);
    });

    it.each([
      ['a short word', 'demo-1'],
      ['21 base64url characters (126 bits)', randomBytes(16).toString('base64url').slice(0, 21)],
      ['31 hex digits (124 bits)', randomBytes(16).toString('hex').slice(0, 31)],
      ['a timestamp', `retry-${Date.now()}`],
      ['base64 with padding', `${randomBytes(16).toString('base64').replace(/=+$/, '')}==`],
      ['the nil UUID', '00000000-0000-0000-0000-000000000000'],
      ['a UUID of ones', '11111111-1111-1111-1111-111111111111'],
      ['a UUID of one digit with a valid version and variant', '00000000-0000-4000-8000-000000000000'],
      ['a UUID with the wrong variant', '3f2b8c1e-9d4a-4e6b-c7f1-2a9e8d7c6b5a'],
      ['43 × A', 'A'.repeat(43)],
      ['a repeated short pattern', 'abab'.repeat(8)],
    ])('an Idempotency-Key that cannot hold 128 random bits (%s) with 400, naming the rule', async (_what, key) => {
      const body = await expectRejected(() => post(fnolBody(), { 'Idempotency-Key': key }), 400);
      expect(body.detail).toMatch(/UUID/);
      expect(body.errors).toEqual([expect.objectContaining({ pointer: '/headers/idempotency-key' })]);
    });

    it('an array or a bare value as the body with 400', async () => {
      await expectRejected(() => request(t.url).post(PATH).set('Content-Type', 'application/json').send('[]'), 400);
      await expectRejected(() => request(t.url).post(PATH).set('Content-Type', 'application/json').send('"x"'), 400);
    });
  });

  describe('creates the claim file', () => {
    it('answers 201 with Location, the contract body, the checklist and an adequate acknowledgement', async () => {
      const response = await post(fnolBody()).expect(201);
      const body = response.body;
      expect(compile(intakeResponseSchema)(body)).toBe(true);
      expect(response.headers.location).toBe(`/api/claims/public/claims/${body.claim_id}/status`);
      expect(body.claim_number).toMatch(new RegExp(`^CLM-${new Date().getUTCFullYear()}-\\d{6}$`));
      expect(body.stage).toBe('intake');
      expect(body.required_documents).toEqual([
        { type: 'photos_of_damage', received: false },
        { type: 'repair_estimate', received: false },
        { type: 'police_report', received: false },
      ]);
      expect(body.status).toMatchObject({
        claim_id: body.claim_id,
        channel: 'email',
        stage: 'intake',
        adequacy_score: 1,
        adequacy_missing: [],
      });
      expect(body.status.cta.url).toContain(`/portal/claims/${body.claim_id}#upload`);
      expect(body.status.portal_url).toMatch(new RegExp(`/portal/claims/${body.claim_id}$`));
      expect(Object.keys(body.status)).toHaveLength(13);
    });

    it('stores the access token only as its hash, with normalised data and service-level dates', async () => {
      const { body } = await post(fnolBody({ language: 'pt-br', claimant: { name: '  Ana Ruiz ', email: 'Ana@Example.COM' } })).expect(201);
      const row = await t.db('claims').where({ id: body.claim_id }).first();
      expect(row.access_token_hash).toBe(hashAccessToken(body.access_token));
      expect(JSON.stringify(row)).not.toContain(body.access_token);
      expect(row).toMatchObject({
        language: 'pt-BR',
        stage: 'intake',
        estimated_currency: 'USD',
      });
      // name and email are sealed with the claimant's data key (features/claimants), and open normalised
      const key = (await t.claimKey(body.claim_id))!;
      expect(openText(key, row.claimant_name, `claims.claimant_name/${body.claim_id}`)).toBe('Ana Ruiz');
      expect(openText(key, row.claimant_email, `claims.claimant_email/${body.claim_id}`)).toBe('ana@example.com');
      expect(row.estimated_amount).toBe('2500.00');
      expect(new Date(row.first_contact_due).getTime()).toBeGreaterThan(new Date(row.received_at).getTime());
      expect(row.next_update_due).not.toBeNull();
      const deliveries = await t.db('deliveries').where({ claim_id: body.claim_id });
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]).toMatchObject({ channel: 'email' });
      const audit = await t.db('claim_audit').where({ claim_id: body.claim_id });
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ action: 'claim.created', actor: 'claimant' });
    });

    it('accepts a phone-only claimant who prefers SMS, and adds medical_report when injuries are reported', async () => {
      const { body } = await post(
        fnolBody({ claimant: { name: 'Bo', phone: '+447700900123' }, preferred_channel: 'sms', injuries: true }),
      ).expect(201);
      expect(body.status.channel).toBe('sms');
      expect(body.required_documents.map((d: { type: string }) => d.type)).toContain('medical_report');
    });

    it('reaches a claimant who gave only a phone by SMS when no channel is stated, and one who gave an email by email', async () => {
      const phoneOnly = fnolBody({ claimant: { name: 'Cy', phone: '+447700900124' } });
      delete phoneOnly.preferred_channel;
      expect((await post(phoneOnly).expect(201)).body.status.channel).toBe('sms');
      const withEmail = fnolBody();
      delete withEmail.preferred_channel;
      expect((await post(withEmail).expect(201)).body.status.channel).toBe('email');
    });

    it('hands out claim numbers in order within the year', async () => {
      const first = (await post(fnolBody()).expect(201)).body.claim_number as string;
      const second = (await post(fnolBody()).expect(201)).body.claim_number as string;
      expect(Number(second.slice(-6))).toBe(Number(first.slice(-6)) + 1);
    });

    it('gives concurrent claims distinct, gapless numbers', async () => {
      const responses = await Promise.all(Array.from({ length: 8 }, (_, i) => post(fnolBody({ policy_number: `POL-PAR-${i}` }))));
      expect(responses.map((r) => r.status)).toEqual(Array(8).fill(201));
      const numbers = responses.map((r) => Number((r.body.claim_number as string).slice(-6))).sort((a, b) => a - b);
      expect(numbers).toEqual(numbers.map((_, i) => numbers[0] + i));
    });

    it('publishes claim.created once, as a CloudEvent without personal data', async () => {
      const { body } = await post(
        fnolBody({ claimant: { name: 'Zed Unique', email: 'zed.unique@example.com', phone: '+14155550199' } }),
      ).expect(201);
      const events = await t.events.waitFor((all) => all.some((e) => e.body.data.claim_id === body.claim_id));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const mine = t.events.received.filter((e) => e.body.data.claim_id === body.claim_id);
      expect(mine).toHaveLength(1);
      const [event] = mine;
      expect(events.length).toBeGreaterThan(0);
      expect(event).toMatchObject({ routingKey: 'claim.created', contentType: 'application/cloudevents+json', persistent: true });
      expect(event.messageId).toBe(event.body.id);
      expect(event.body).toMatchObject({ specversion: '1.0', type: 'claim.created', subject: body.claim_id });
      expect(event.body.data).toMatchObject({ claim_id: body.claim_id, claim_number: body.claim_number, loss_type: 'auto_collision' });
      const [timeline] = await t.db('claim_audit').where({ claim_id: body.claim_id, action: 'claim.created' });
      expect(timeline.data.event_id).toBe(event.body.id);
      const text = JSON.stringify(event.body);
      for (const personal of ['Zed Unique', 'zed.unique@example.com', '+14155550199', 'Rear-ended', '1 Main St', body.access_token])
        expect(text).not.toContain(personal);
    });
  });

  describe('with an Idempotency-Key', () => {
    it.each([
      ['a UUID', () => randomUUID()],
      ['an upper-case UUID', () => randomUUID().toUpperCase()],
      ['22 base64url characters (128 bits)', () => randomBytes(16).toString('base64url')],
      ['32 hex digits', () => randomBytes(16).toString('hex')],
    ])('accepts %s as the key', async (_what, key) => {
      await post(fnolBody(), { 'Idempotency-Key': key() }).expect(201);
    });

    it('answers a retry with the same body with the same 201 body and no second claim', async () => {
      const key = randomUUID();
      const before = (await countRows(t.db)).claims;
      const first = await post(fnolBody(), { 'Idempotency-Key': key }).expect(201);
      const again = await post(fnolBody(), { 'Idempotency-Key': key }).expect(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers.location).toBe(first.headers.location);
      // Both answers carry the access token: no cache may keep them.
      expect([first.headers['cache-control'], again.headers['cache-control']]).toEqual(['no-store', 'no-store']);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect((await countRows(t.db)).claims).toBe(before + 1);
      const [row] = await t.db('idempotency_keys').where({ claim_id: first.body.claim_id });
      expect(row.key_hash).not.toBe(key);
      expect(row.sealed_response).not.toContain(first.body.access_token);
    });

    it('creates exactly one claim under 10 concurrent retries, and publishes one event', async () => {
      const key = randomUUID();
      const before = (await countRows(t.db)).claims;
      const responses = await Promise.all(Array.from({ length: 10 }, () => post(fnolBody(), { 'Idempotency-Key': key })));
      expect(responses.map((r) => r.status)).toEqual(Array(10).fill(201));
      const ids = new Set(responses.map((r) => r.body.claim_id));
      expect(ids.size).toBe(1);
      for (const response of responses) expect(response.body).toEqual(responses[0].body);
      expect((await countRows(t.db)).claims).toBe(before + 1);
      const [claimId] = [...ids];
      await t.events.waitFor((all) => all.some((e) => e.body.data.claim_id === claimId));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(t.events.received.filter((e) => e.body.data.claim_id === claimId)).toHaveLength(1);
    });

    it('answers the same key with another body with 422 and creates nothing', async () => {
      const key = randomUUID();
      await post(fnolBody(), { 'Idempotency-Key': key }).expect(201);
      const body = await expectRejected(() => post(fnolBody({ policy_number: 'POL-999999' }), { 'Idempotency-Key': key }), 422);
      expect(body.detail).toMatch(/Idempotency-Key/);
    });

    it('treats the same JSON written differently as the same body', async () => {
      const key = randomUUID();
      const first = await post(fnolBody(), { 'Idempotency-Key': key }).expect(201);
      const reordered = Object.fromEntries(Object.entries(fnolBody()).reverse());
      const again = await request(t.url)
        .post(PATH)
        .set('Idempotency-Key', key)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(reordered, null, 2))
        .expect(201);
      expect(again.body.claim_id).toBe(first.body.claim_id);
    });

    it('forgets a stored answer once it has expired: the key then creates a new claim', async () => {
      const key = randomUUID();
      const first = await post(fnolBody(), { 'Idempotency-Key': key }).expect(201);
      await t
        .db('idempotency_keys')
        .where({ claim_id: first.body.claim_id })
        .update({ expires_at: new Date(Date.now() - 1000) });
      const again = await post(fnolBody({ policy_number: 'POL-777' }), { 'Idempotency-Key': key }).expect(201);
      expect(again.body.claim_id).not.toBe(first.body.claim_id);
    });

    it('purges stored answers past their retention on a timer, keeping the live ones', async () => {
      const [expired, live] = [
        await post(fnolBody(), { 'Idempotency-Key': randomUUID() }).expect(201),
        await post(fnolBody(), { 'Idempotency-Key': randomUUID() }).expect(201),
      ];
      await t
        .db('idempotency_keys')
        .where({ claim_id: expired.body.claim_id })
        .update({ expires_at: new Date(Date.now() - 1000) });
      const logged: unknown[] = [];
      const logger = { info: (...args: unknown[]) => logged.push(args), warn: (...args: unknown[]) => logged.push(args) };
      const purge = startIdempotencyPurge({ db: t.db, logger: logger as never }, 50);
      try {
        await eventually(async () => (await t.db('idempotency_keys').where({ claim_id: expired.body.claim_id })).length === 0);
      } finally {
        await purge.stop();
      }
      expect(await t.db('idempotency_keys').where({ claim_id: live.body.claim_id })).toHaveLength(1);
    });
  });
});
