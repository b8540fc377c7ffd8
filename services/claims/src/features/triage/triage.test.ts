import request from 'supertest';
import { canonicalSha256 } from '@platform/canonical-json';
import { compile } from '@platform/http';
import { escalationSchema } from '../escalations';
import { startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { as, daysAgo, fileTestClaim, type TestClaimFields } from '../../testing/workflow-fixtures';
import { triageResultSchema } from './triage-schemas';

describe('triage and escalation decisions', () => {
  let t: ClaimsTestService;
  beforeAll(async () => {
    t = await startClaimsTestService();
  });
  afterAll(async () => {
    await t?.stop();
  });

  const runTriage = async (claimId: string, auth?: string) =>
    request(t.url)
      .post(`/api/claims/claims/${claimId}/run-triage`)
      .set('Authorization', auth ?? (await as.writer()));
  const decide = async (claimId: string, escalationId: string, body: unknown, auth?: string) =>
    request(t.url)
      .post(`/api/claims/claims/${claimId}/escalations/${escalationId}/decision`)
      .set('Authorization', auth ?? (await as.decider()))
      .send(body as object);
  const newClaim = (fields: TestClaimFields = {}) => fileTestClaim(t.url, fields);
  const claimRow = (claimId: string) => t.db('claims').where({ id: claimId }).first('stage', 'queue');
  const eventsOf = (type: string, claimId: string) =>
    t.events.received.filter((e) => e.routingKey === type && e.body.data.claim_id === claimId);

  async function expectGated(claimId: string, gate: string) {
    const response = await runTriage(claimId);
    expect(response.status).toBe(201);
    expect(response.body.outcome).toBe('pending_human_decision');
    expect(response.body.escalation_gates.map((g: { gate: string }) => g.gate)).toContain(gate);
    expect(response.body.escalation_id).toEqual(expect.any(String));
    expect(await claimRow(claimId)).toEqual({ stage: 'triage', queue: null });
    const escalation = await t.db('escalations').where({ id: response.body.escalation_id }).first();
    expect(escalation).toMatchObject({ claim_id: claimId, status: 'open', triage_id: response.body.triage_id });
    return response.body;
  }

  it('registers every claims-workflow operation in the OpenAPI document', async () => {
    const doc = (await request(t.url).get('/openapi.json').expect(200)).body;
    const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, methods]) =>
      Object.keys(methods).map((m) => `${m} ${p}`),
    );
    expect(operations).toEqual(
      expect.arrayContaining([
        'post /claims/{id}/run-triage',
        'post /claims/{id}/escalations/{escalation_id}/decision',
        'post /claims/{id}/status-updates',
        'get /claims/{id}/status-updates/{update_id}',
        'post /claims/{id}/generate-adjuster-kit',
        'get /claims/{id}/adjuster-kits/{kit_id}',
        'get /claims/{id}/attachments/{attachment_id}/content',
      ]),
    );
    expect(doc.paths['/claims/{id}/run-triage'].post.responses['201'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/RunTriageResponse',
    });
    expect(doc.components.schemas.RunTriageResponse).toEqual(triageResultSchema);
  });

  it('refuses callers without claims:write (401, 403) and unknown claims (404)', async () => {
    const claim = await newClaim();
    await request(t.url).post(`/api/claims/claims/${claim.claim_id}/run-triage`).expect(401);
    expect((await runTriage(claim.claim_id, await as.reader())).status).toBe(403);
    expect((await runTriage('6a1f7c2e-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await runTriage('not-a-uuid')).status).toBe(404);
    expect(await t.db('triage_runs').where({ claim_id: claim.claim_id }).count({ n: '*' })).toEqual([{ n: '0' }]);
  });

  it('refuses to triage a closed claim (409) and stores nothing', async () => {
    const claim = await newClaim();
    await t.db('claims').where({ id: claim.claim_id }).update({ stage: 'closed' });
    const response = await runTriage(claim.claim_id);
    expect(response.status).toBe(409);
    expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(await t.db('triage_runs').where({ claim_id: claim.claim_id }).count({ n: '*' })).toEqual([{ n: '0' }]);
  });

  it('routes a simple claim automatically: fast track, stage assigned, run stored with its input digest', async () => {
    const claim = await newClaim();
    const response = await runTriage(claim.claim_id);
    expect(response.status).toBe(201);
    expect(compile(triageResultSchema)(response.body)).toBe(true);
    expect(response.body).toMatchObject({
      claim_id: claim.claim_id,
      policy_version: '2026-11-01.1',
      ran_by: 'adjuster-ann',
      score: 0,
      queue: 'fast_track',
      rule_hits: [],
      escalation_gates: [],
      outcome: 'auto_routed',
      escalation_id: null,
    });
    expect(await claimRow(claim.claim_id)).toEqual({ stage: 'assigned', queue: 'fast_track' });
    const run = await t.db('triage_runs').where({ id: response.body.triage_id }).first();
    expect(run.input_digest).toBe(canonicalSha256({ policy_version: '2026-11-01.1', inputs: run.inputs }));
    expect(run.inputs).toMatchObject({
      loss_type: 'auto_collision',
      police_report_present: true,
      estimated_amount: 2500,
      report_lag_days: 2,
    });
    await t.events.waitFor(() => eventsOf('claim.triaged', claim.claim_id).length === 1);
    const [event] = eventsOf('claim.triaged', claim.claim_id);
    expect(event.body.data).toMatchObject({
      triage_id: response.body.triage_id,
      outcome: 'auto_routed',
      queue: 'fast_track',
      actor: 'adjuster-ann',
    });
    expect(JSON.stringify(event.body.data)).not.toMatch(/ana\.|Ana Ruiz|\+1415/);
    const audit = await t.db('claim_audit').where({ claim_id: claim.claim_id, action: 'claim.triaged' });
    expect(audit).toHaveLength(1);
  });

  it('raises the injury gate and leaves the claim in triage with an open escalation', async () => {
    const claim = await newClaim({ injuries: true });
    await expectGated(claim.claim_id, 'injury');
  });

  it('raises the high-value gate for an amount at the policy threshold', async () => {
    const claim = await newClaim({ estimated_amount: '40000.00' });
    const body = await expectGated(claim.claim_id, 'high_value');
    expect(body.queue).toBe('complex');
  });

  it('raises the fraud gate for several claims on one policy', async () => {
    const first = await newClaim();
    await newClaim({ policy_number: first.policy_number });
    const third = await newClaim({ policy_number: first.policy_number });
    const body = await expectGated(third.claim_id, 'fraud_indicator');
    expect(body.rule_hits.map((h: { rule_id: string }) => h.rule_id)).toContain('repeat-claims-on-policy');
    expect(body.queue).toBe('special_investigations');
  });

  it('raises the fraud gate for a theft without a police report', async () => {
    const claim = await newClaim({ police_report_number: null, loss_type: 'auto_theft', description: 'Car stolen from the driveway' });
    const body = await expectGated(claim.claim_id, 'fraud_indicator');
    expect(body.rule_hits.map((h: { rule_id: string }) => h.rule_id)).toEqual(['theft-without-police-report']);
  });

  it('raises the fraud gate for a loss reported late', async () => {
    const claim = await newClaim({ loss_date: daysAgo(45) });
    const body = await expectGated(claim.claim_id, 'fraud_indicator');
    expect(body.escalation_gates[0].reason).toBe('Reported 45 days after the loss');
  });

  it('raises the litigation gate for lawyers in the description', async () => {
    const claim = await newClaim({ description: 'The other driver says their attorney will contact us' });
    await expectGated(claim.claim_id, 'litigation');
  });

  it('raises the vulnerable-customer gate', async () => {
    const claim = await newClaim({ description: 'My elderly father was driving; he has a disability' });
    await expectGated(claim.claim_id, 'vulnerable_customer');
  });

  it('refuses a second run while an escalation is open (409 naming it), never opening a second one', async () => {
    const claim = await newClaim({ injuries: true });
    const first = await expectGated(claim.claim_id, 'injury');
    const [a, b] = await Promise.all([runTriage(claim.claim_id), runTriage(claim.claim_id)]);
    for (const response of [a, b]) {
      expect(response.status).toBe(409);
      expect(response.body.escalation_id).toBe(first.escalation_id);
    }
    expect(await t.db('escalations').where({ claim_id: claim.claim_id }).count({ n: '*' })).toEqual([{ n: '1' }]);
    expect(await t.db('triage_runs').where({ claim_id: claim.claim_id }).count({ n: '*' })).toEqual([{ n: '1' }]);
  });

  it('lets only claims:decide decide, requires a rationale and a queue to override, and keeps decisions final', async () => {
    const claim = await newClaim({ injuries: true });
    const { escalation_id: escalationId } = await expectGated(claim.claim_id, 'injury');

    expect((await decide(claim.claim_id, escalationId, { decision: 'accept', rationale: 'ok' }, await as.writer())).status).toBe(403);
    expect((await decide(claim.claim_id, escalationId, { decision: 'accept' })).status).toBe(400);
    expect((await decide(claim.claim_id, escalationId, { decision: 'accept', rationale: '   ' })).status).toBe(400);
    expect((await decide(claim.claim_id, escalationId, { decision: 'override', rationale: 'needs SIU' })).status).toBe(400);
    expect((await decide(claim.claim_id, escalationId, { decision: 'accept', rationale: 'ok', extra: 1 })).status).toBe(400);
    expect((await decide(claim.claim_id, escalationId, { decision: 'accept', queue: 'fast_track', rationale: 'ok' })).status).toBe(422);
    expect((await decide(claim.claim_id, '6a1f7c2e-0000-4000-8000-000000000000', { decision: 'accept', rationale: 'ok' })).status).toBe(
      404,
    );
    const other = await newClaim();
    expect((await decide(other.claim_id, escalationId, { decision: 'accept', rationale: 'ok' })).status).toBe(404);
    expect((await t.db('escalations').where({ id: escalationId }).first()).status).toBe('open');

    const before = await request(t.url)
      .get(`/api/claims/claims/${claim.claim_id}`)
      .set('Authorization', await as.reader())
      .set('Access-Purpose', 'Checking the escalation') // an injury claim: read only with a purpose
      .expect(200);
    expect(before.body.triage).toMatchObject({ escalation_id: escalationId, outcome: 'pending_human_decision' });
    expect(before.body.escalation).toMatchObject({ escalation_id: escalationId, status: 'open', proposed_queue: 'complex' });

    const decided = await decide(claim.claim_id, escalationId, {
      decision: 'override',
      queue: 'special_investigations',
      rationale: 'Injury with prior claims history',
    });
    expect(decided.status).toBe(200);
    expect(compile(escalationSchema)(decided.body)).toBe(true);
    expect(decided.body).toMatchObject({
      escalation_id: escalationId,
      status: 'decided',
      decision: 'override',
      proposed_queue: 'complex',
      queue: 'special_investigations',
      rationale: 'Injury with prior claims history',
      decided_by: 'supervisor-sam',
    });
    expect(await claimRow(claim.claim_id)).toEqual({ stage: 'assigned', queue: 'special_investigations' });

    const after = await request(t.url)
      .get(`/api/claims/claims/${claim.claim_id}`)
      .set('Authorization', await as.reader())
      .set('Access-Purpose', 'Checking the escalation') // an injury claim: read only with a purpose
      .expect(200);
    expect(after.body.escalation).toEqual(decided.body);
    expect(after.body.claim).toMatchObject({ stage: 'assigned', queue: 'special_investigations' });

    const again = await decide(claim.claim_id, escalationId, { decision: 'accept', rationale: 'changed my mind' });
    expect(again.status).toBe(409);
    expect(await claimRow(claim.claim_id)).toEqual({ stage: 'assigned', queue: 'special_investigations' });

    await t.events.waitFor(() => eventsOf('claim.escalation_decided', claim.claim_id).length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(eventsOf('claim.escalation_decided', claim.claim_id)).toHaveLength(1);
    expect(eventsOf('claim.triaged', claim.claim_id)).toHaveLength(1);
    expect(eventsOf('claim.escalation_decided', claim.claim_id)[0].body.data).toMatchObject({
      decision: 'override',
      queue: 'special_investigations',
      actor: 'supervisor-sam',
    });
  });

  it('takes exactly one of two concurrent decisions; the other is 409', async () => {
    const claim = await newClaim({ estimated_amount: '90000.00' });
    const { escalation_id: escalationId } = await expectGated(claim.claim_id, 'high_value');
    const responses = await Promise.all([
      decide(claim.claim_id, escalationId, { decision: 'accept', rationale: 'first' }),
      decide(claim.claim_id, escalationId, { decision: 'override', queue: 'standard', rationale: 'second' }),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = responses.find((r) => r.status === 200)!.body;
    expect(await claimRow(claim.claim_id)).toEqual({ stage: 'assigned', queue: winner.queue });
    expect(await t.db('claim_audit').where({ claim_id: claim.claim_id, action: 'claim.escalation_decided' })).toHaveLength(1);
  });

  it('accepts the proposed queue when accepting without naming one; a later run opens a fresh escalation without moving the claim back', async () => {
    const claim = await newClaim({ description: 'My lawyer advised me to report this' });
    const { escalation_id: escalationId } = await expectGated(claim.claim_id, 'litigation');
    const decided = await decide(claim.claim_id, escalationId, { decision: 'accept', rationale: 'Counsel involved; complex is right' });
    expect(decided.status).toBe(200);
    expect(decided.body).toMatchObject({ decision: 'accept', queue: 'complex' });
    expect(await claimRow(claim.claim_id)).toEqual({ stage: 'assigned', queue: 'complex' });
    const rerun = await runTriage(claim.claim_id);
    expect(rerun.status).toBe(201);
    expect(rerun.body.escalation_id).not.toBe(escalationId);
    expect(await claimRow(claim.claim_id)).toEqual({ stage: 'assigned', queue: 'complex' });
  });
});
