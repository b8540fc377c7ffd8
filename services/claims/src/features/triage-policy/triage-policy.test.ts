import request from 'supertest';
import { compile } from '@platform/http';
import { bearer } from '@platform/testing';
import { startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { as, fileTestClaim } from '../../testing/workflow-fixtures';
import { DEFAULT_TRIAGE_POLICY } from './default-policy';
import { publishedTriagePolicySchema } from './triage-policy-schemas';

const PATH = '/api/claims/triage-policy';

/** The default policy under a new version, with a threshold that makes 2500.00 high value. */
const lowerThreshold = (version: string) => ({
  ...DEFAULT_TRIAGE_POLICY,
  version,
  description: 'High value from 2000.00',
  parameters: { ...DEFAULT_TRIAGE_POLICY.parameters, high_value_amount: '2000.00' },
});

describe('the triage policy: visible and published as new versions', () => {
  let t: ClaimsTestService;
  beforeAll(async () => {
    t = await startClaimsTestService();
  });
  afterAll(async () => {
    await t?.stop();
  });

  const publish = async (body: unknown, auth?: string) =>
    request(t.url)
      .post(`${PATH}/versions`)
      .set('Authorization', auth ?? (await as.decider()))
      .send(body as object);
  const versions = async () =>
    (await t.db('triage_policies').orderBy('created_at').select('version', 'active')) as { version: string; active: boolean }[];

  it('shows the active version, its rules and the gates they raise to claims:read (401 without credentials, 403 without the scope)', async () => {
    await request(t.url).get(PATH).expect(401);
    await request(t.url)
      .get(PATH)
      .set('Authorization', await bearer('claims:write'))
      .expect(403);
    const response = await request(t.url)
      .get(PATH)
      .set('Authorization', await as.reader())
      .expect(200);
    expect(compile(publishedTriagePolicySchema)(response.body)).toBe(true);
    expect(response.body).toMatchObject({ ...DEFAULT_TRIAGE_POLICY, active: true, published_by: 'system:migration' });
    expect(response.body.gates).toEqual([
      'injury',
      'high_value',
      'fraud_indicator',
      'litigation',
      'vulnerable_customer',
      'coverage_question',
    ]);
  });

  it.each([
    ['a body that is not a policy', { version: '2026-12-01.9' }, 400],
    [
      'an unknown fact',
      {
        ...lowerThreshold('2026-12-01.9'),
        rules: [{ ...DEFAULT_TRIAGE_POLICY.rules[0], conditions: { all: [{ fact: 'shoe_size', operator: 'equal', value: 42 }] } }],
      },
      422,
    ],
    [
      'an unknown operator',
      {
        ...lowerThreshold('2026-12-01.9'),
        rules: [{ ...DEFAULT_TRIAGE_POLICY.rules[0], conditions: { all: [{ fact: 'loss_type', operator: 'sounds_like', value: 'x' }] } }],
      },
      422,
    ],
    [
      'a repeated rule id',
      { ...lowerThreshold('2026-12-01.9'), rules: [DEFAULT_TRIAGE_POLICY.rules[0], DEFAULT_TRIAGE_POLICY.rules[0]] },
      422,
    ],
    ['a version already published', lowerThreshold(DEFAULT_TRIAGE_POLICY.version), 409],
  ])('refuses %s and leaves the policies as they were', async (_what, body, status) => {
    const before = await versions();
    const response = await publish(body);
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(await versions()).toEqual(before);
  });

  it('publishes only for claims:decide', async () => {
    expect((await publish(lowerThreshold('2026-12-01.8'), await as.writer())).status).toBe(403);
    expect(await versions()).toEqual([{ version: DEFAULT_TRIAGE_POLICY.version, active: true }]);
  });

  it('publishes a new version that triages from then on, keeps the old one unchanged, and records who published it', async () => {
    const published = await publish(lowerThreshold('2026-12-01.1'));
    expect(published.status).toBe(201);
    expect(published.headers.location).toBe(PATH);
    expect(published.body).toMatchObject({ version: '2026-12-01.1', active: true, published_by: 'supervisor-sam' });
    const current = await request(t.url)
      .get(PATH)
      .set('Authorization', await as.reader())
      .expect(200);
    expect(current.body).toEqual(published.body);
    expect(await versions()).toEqual([
      { version: DEFAULT_TRIAGE_POLICY.version, active: false },
      { version: '2026-12-01.1', active: true },
    ]);
    const old = await t
      .db('triage_policies')
      .where({ version: DEFAULT_TRIAGE_POLICY.version })
      .first('description', 'parameters', 'score_bands', 'rules');
    expect(old).toEqual({
      description: DEFAULT_TRIAGE_POLICY.description,
      parameters: DEFAULT_TRIAGE_POLICY.parameters,
      score_bands: DEFAULT_TRIAGE_POLICY.score_bands,
      rules: DEFAULT_TRIAGE_POLICY.rules,
    });

    const claim = await fileTestClaim(t.url, { estimated_amount: '2500.00' });
    const run = await request(t.url)
      .post(`/api/claims/claims/${claim.claim_id}/run-triage`)
      .set('Authorization', await as.writer())
      .expect(201);
    expect(run.body.policy_version).toBe('2026-12-01.1');
    expect(run.body.escalation_gates.map((gate: { gate: string }) => gate.gate)).toContain('high_value');
  });

  it('never lets a published version change: the database refuses an edit or a removal', async () => {
    await expect(
      t.db('triage_policies').where({ version: DEFAULT_TRIAGE_POLICY.version }).update({ description: 'rewritten' }),
    ).rejects.toThrow(/never changes/);
    await expect(t.db('triage_policies').where({ version: DEFAULT_TRIAGE_POLICY.version }).delete()).rejects.toThrow(/never changes/);
  });
});
