import request from 'supertest';
import { compile } from '@platform/http';
import { bearer } from '@platform/testing';
import { startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { as } from '../../testing/workflow-fixtures';
import { retentionPolicySchema } from './retention-policy-schemas';

const PATH = '/api/claims/retention-policy';
const privacyOfficer = () => bearer('privacy:manage', 'privacy-pat');
const days = { paid: 3650, denied: 2555, withdrawn: 30, duplicate: 0 };

describe('the retention policy: versioned data, published by privacy officers', () => {
  let t: ClaimsTestService;
  beforeAll(async () => {
    t = await startClaimsTestService();
  });
  afterAll(async () => {
    await t?.stop();
  });

  const publish = async (body: unknown, ifMatch: string | undefined, auth?: string) => {
    const call = request(t.url)
      .put(PATH)
      .set('Authorization', auth ?? (await privacyOfficer()));
    if (ifMatch !== undefined) call.set('If-Match', ifMatch);
    return call.send(body as object);
  };
  const versions = async () => (await t.db('retention_policies').orderBy('version').select('version')).map((row) => row.version);

  it('shows version 1, the documented default, with its ETag, to privacy:manage only', async () => {
    await request(t.url).get(PATH).expect(401);
    await request(t.url)
      .get(PATH)
      .set('Authorization', await as.decider())
      .expect(403);
    const response = await request(t.url)
      .get(PATH)
      .set('Authorization', await privacyOfficer())
      .expect(200);
    expect(compile(retentionPolicySchema)(response.body)).toBe(true);
    expect(response.headers.etag).toBe('"1"');
    expect(response.body).toMatchObject({
      version: 1,
      retention_days: { paid: 2555, denied: 2555, withdrawn: 1095, duplicate: 365 },
      published_by: 'system:migration',
    });
  });

  it.each([
    ['without If-Match', { retention_days: days, reason: 'x' }, undefined, 400],
    ['with an If-Match that is no ETag', { retention_days: days, reason: 'x' }, 'v1', 400],
    ['with a stale If-Match', { retention_days: days, reason: 'x' }, '"7"', 409],
    ['without a reason', { retention_days: days }, '"1"', 400],
    ['with negative days', { retention_days: { ...days, paid: -1 }, reason: 'x' }, '"1"', 400],
    ['with a closing reason missing', { retention_days: { paid: 1, denied: 1, withdrawn: 1 }, reason: 'x' }, '"1"', 400],
  ])('refuses a publication %s and leaves the versions as they were', async (_what, body, ifMatch, status) => {
    const before = await versions();
    const response = await publish(body, ifMatch);
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(await versions()).toEqual(before);
  });

  it('refuses a caller without privacy:manage', async () => {
    expect((await publish({ retention_days: days, reason: 'x' }, '"1"', await as.decider())).status).toBe(403);
    expect(await versions()).toEqual([1]);
  });

  it('publishes the next version with who and why, keeps the history, and refuses a second publication based on the same read', async () => {
    const published = await publish({ retention_days: days, reason: 'Withdrawn claims kept 30 days' }, '"1"');
    expect(published.status).toBe(200);
    expect(published.headers.etag).toBe('"2"');
    expect(published.body).toMatchObject({
      version: 2,
      retention_days: days,
      reason: 'Withdrawn claims kept 30 days',
      published_by: 'privacy-pat',
    });
    const current = await request(t.url)
      .get(PATH)
      .set('Authorization', await privacyOfficer())
      .expect(200);
    expect(current.body).toEqual(published.body);

    expect((await publish({ retention_days: days, reason: 'Someone else' }, '"1"')).status).toBe(409);
    const history = await request(t.url)
      .get(`${PATH}/versions`)
      .set('Authorization', await privacyOfficer())
      .expect(200);
    expect(history.body.items.map((item: { version: number; published_by: string }) => [item.version, item.published_by])).toEqual([
      [2, 'privacy-pat'],
      [1, 'system:migration'],
    ]);
  });

  it('never lets a published version change: the database refuses an edit or a removal', async () => {
    await expect(t.db('retention_policies').where({ version: 1 }).update({ paid_days: 1 })).rejects.toThrow(/never changes/);
    await expect(t.db('retention_policies').where({ version: 1 }).delete()).rejects.toThrow(/never changes/);
  });
});
