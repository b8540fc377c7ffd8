import request from 'supertest';
import { compile } from '@platform/http';
import { countRows, fileClaim, startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { withdrawalSchema } from './withdrawal-schemas';

describe('POST /api/claims/public/claims/{id}/withdraw', () => {
  let t: ClaimsTestService;

  beforeAll(async () => {
    t = await startClaimsTestService();
  });
  afterAll(async () => {
    await t?.stop();
  });

  const withdraw = (claimId: string, token?: string) => {
    const call = request(t.url).post(`/api/claims/public/claims/${claimId}/withdraw`);
    return token === undefined ? call : call.set('Authorization', `Bearer ${token}`);
  };

  it('closes an open claim as withdrawn, tells the claimant, records it and announces claim.withdrawn', async () => {
    const claim = await fileClaim(t.url);
    const response = await withdraw(claim.claim_id, claim.access_token).expect(200);
    expect(compile(withdrawalSchema)(response.body)).toBe(true);
    expect(response.body).toMatchObject({
      claim_id: claim.claim_id,
      stage: 'closed',
      closing_reason: 'withdrawn',
      status: { stage: 'closed', channel: 'email', language: 'en' },
    });
    expect(response.body.status.what_happened).toBe(`You withdrew your claim ${claim.claim_number}, and we have closed it.`);

    const row = await t.db('claims').where({ id: claim.claim_id }).first('stage', 'closing_reason', 'next_update_due');
    expect(row).toEqual({ stage: 'closed', closing_reason: 'withdrawn', next_update_due: null });
    const audit = await t.db('claim_audit').where({ claim_id: claim.claim_id, action: 'claim.withdrawn' }).first('actor');
    expect(audit).toEqual({ actor: 'claimant' });
    expect(await t.db('deliveries').where({ claim_id: claim.claim_id, channel: 'email' }).count({ n: '*' })).toEqual([{ n: '2' }]);
    const isWithdrawal = (event: { routingKey: string; body: { subject: string } }) =>
      event.routingKey === 'claim.withdrawn' && event.body.subject === claim.claim_id;
    const events = await t.events.waitFor((received) => received.some(isWithdrawal));
    expect(events.find(isWithdrawal)!.body.data).toMatchObject({
      claim_id: claim.claim_id,
      actor: 'claimant',
      previous_stage: 'intake',
      stage: 'closed',
      closing_reason: 'withdrawn',
    });

    const status = await request(t.url)
      .get(`/api/claims/public/claims/${claim.claim_id}/status`)
      .set('Authorization', `Bearer ${claim.access_token}`)
      .expect(200);
    // withdrawn at intake: the claim passed intake only, and says why it closed
    expect(status.body).toMatchObject({ stage: 'closed', stages_passed: ['intake'], closing_reason: 'withdrawn' });
    expect(status.body.history.items[0].update.what_happened).toBe(response.body.status.what_happened);
  });

  it('writes the confirmation in the claim language', async () => {
    const claim = await fileClaim(t.url, { language: 'es-MX' });
    const response = await withdraw(claim.claim_id, claim.access_token).expect(200);
    expect(response.body.status).toMatchObject({
      language: 'es',
      what_happened: `Ha retirado su reclamación ${claim.claim_number} y la hemos cerrado.`,
    });
  });

  it.each(['settlement', 'closed'])('answers 409 in %s and changes nothing', async (stage) => {
    const claim = await fileClaim(t.url);
    await t
      .db('claims')
      .where({ id: claim.claim_id })
      .update({ stage, ...(stage === 'closed' ? { closing_reason: 'paid' } : {}) });
    const before = await countRows(t.db);
    const response = await withdraw(claim.claim_id, claim.access_token).expect(409);
    expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(await countRows(t.db)).toEqual(before);
    expect(await t.db('claims').where({ id: claim.claim_id }).first('stage')).toEqual({ stage });
  });

  it('answers 401 without a token and the same 404 for a wrong token or another claim, leaving the claim open', async () => {
    const claim = await fileClaim(t.url);
    const other = await fileClaim(t.url);
    await withdraw(claim.claim_id).expect(401);
    const wrong = await withdraw(claim.claim_id, 'not-the-token').expect(404);
    const foreign = await withdraw(claim.claim_id, other.access_token).expect(404);
    expect(foreign.body.detail).toBe(wrong.body.detail);
    expect(await t.db('claims').where({ id: claim.claim_id }).first('stage')).toEqual({ stage: 'intake' });
  });
});
