import request from 'supertest';
import { compile } from '@platform/http';
import { bearer, eventually, tableStorageOptions } from '@platform/testing';
import { fileClaim, startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { headerOf, startSmtpTestServer } from '../../testing/smtp-test-server';
import { claimDeliveriesResponseSchema, type ClaimDelivery } from './delivery-schemas';
import { DELIVERY_MAX_ATTEMPTS } from './delivery-worker';

/** The SMTP server refuses RCPT TO for this mailbox. */
const GONE = 'gone@example.com';

describe('GET /api/claims/claims/{id}/deliveries, email through a real SMTP server', () => {
  let t: ClaimsTestService;
  let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
  let reader: string;

  beforeAll(async () => {
    smtp = await startSmtpTestServer([GONE]);
    t = await startClaimsTestService({ SMTP_URL: smtp.url, SMTP_FROM: 'claims@insurer.example' });
    reader = await bearer('claims:read');
  });
  afterAll(async () => {
    await t?.stop();
    await smtp?.close();
  });

  const deliveriesOf = async (claimId: string): Promise<ClaimDelivery[]> => {
    const response = await request(t.url).get(`/api/claims/claims/${claimId}/deliveries`).set('Authorization', reader).expect(200);
    expect(compile(claimDeliveriesResponseSchema)(response.body)).toBe(true);
    return response.body.items;
  };
  const failedDeliveryGauge = async () =>
    Number(/^claims_with_failed_delivery\{[^}]*\} (\d+)$/m.exec((await request(t.url).get('/metrics').expect(200)).text)?.[1]);

  it('keeps the delivery queue vacuumed after each 1,000 dead rows, not at 20% of the table (0015)', async () => {
    expect(await tableStorageOptions(t.db, 'deliveries')).toEqual(
      expect.arrayContaining(['autovacuum_vacuum_scale_factor=0', 'autovacuum_vacuum_threshold=1000']),
    );
  });

  it('answers 401 without credentials, 403 without claims:read and 404 for an unknown claim', async () => {
    const claim = await fileClaim(t.url, { policy_number: 'POL-DLV-AUTH', claimant: { name: 'Ana Ruiz', email: 'ana.auth@example.com' } });
    await request(t.url).get(`/api/claims/claims/${claim.claim_id}/deliveries`).expect(401);
    await request(t.url)
      .get(`/api/claims/claims/${claim.claim_id}/deliveries`)
      .set('Authorization', await bearer('claims:write'))
      .expect(403);
    const missing = await request(t.url)
      .get('/api/claims/claims/00000000-0000-4000-8000-000000000000/deliveries')
      .set('Authorization', reader)
      .expect(404);
    expect(missing.headers['content-type']).toMatch(/application\/problem\+json/);
    await request(t.url).get('/api/claims/claims/not-a-uuid/deliveries').set('Authorization', reader).expect(404);
  });

  it("delivers the acknowledgement by SMTP and shows it sent with the server's Message-ID", async () => {
    const claim = await fileClaim(t.url, { policy_number: 'POL-DLV-OK', claimant: { name: 'Ana Ruiz', email: 'ana.ok@example.com' } });
    const mail = await eventually(async () => smtp.received.find((received) => received.to.includes('ana.ok@example.com')));
    expect(mail.from).toBe('claims@insurer.example');
    expect(headerOf(mail.raw, 'Subject')).toBe(`Update on your claim ${claim.claim_number}`);
    expect(mail.text).toContain(`We received your claim ${claim.claim_number}.`);
    expect(mail.text).toContain('What happens next: A claims specialist will review it');

    const [delivery] = await eventually(async () => {
      const items = await deliveriesOf(claim.claim_id);
      return items[0]?.status === 'sent' ? items : undefined;
    });
    expect(delivery).toMatchObject({
      kind: 'status_update',
      channel: 'email',
      status: 'sent',
      attempts: 1,
      last_error: null,
      next_attempt_at: null,
    });
    expect(delivery.provider_message_id).toBe(headerOf(mail.raw, 'Message-ID'));
    expect(delivery.completed_at).not.toBeNull();
  });

  it("shows a refused recipient retrying with the server's answer, then failed after the last attempt; listed and counted", async () => {
    const before = await failedDeliveryGauge();
    const claim = await fileClaim(t.url, { policy_number: 'POL-DLV-GONE', claimant: { name: 'Ana Ruiz', email: GONE } });
    const [retrying] = await eventually(async () => {
      const items = await deliveriesOf(claim.claim_id);
      return items[0]?.status === 'retrying' ? items : undefined;
    });
    expect(retrying).toMatchObject({ status: 'retrying', attempts: 1, provider_message_id: null, completed_at: null });
    expect(retrying.last_error).toMatch(/550/);
    expect(Date.parse(retrying.next_attempt_at!)).toBeGreaterThan(Date.now());

    // the backoff has run its course: the last attempt is due now
    await t
      .db('deliveries')
      .where({ id: retrying.delivery_id })
      .update({ attempts: DELIVERY_MAX_ATTEMPTS - 1, next_attempt_at: new Date() });
    const [failed] = await eventually(async () => {
      const items = await deliveriesOf(claim.claim_id);
      return items[0]?.status === 'failed' ? items : undefined;
    });
    expect(failed).toMatchObject({ status: 'failed', attempts: DELIVERY_MAX_ATTEMPTS, next_attempt_at: null });
    expect(failed.last_error).toMatch(/550/);
    expect(smtp.received.some((mail) => mail.to.includes(GONE))).toBe(false);

    const listed = await request(t.url).get('/api/claims/claims?delivery_failed=true').set('Authorization', reader).expect(200);
    expect(listed.body.items.map((item: { claim_id: string }) => item.claim_id)).toEqual([claim.claim_id]);
    expect(await failedDeliveryGauge()).toBe(before + 1);
  });
});
