import { bearer } from '@platform/testing';
import { createControl, createRun, people, startWorkflowService, type WorkflowService } from '../../testing/workflow-test-kit';

describe('runs: creation, review and decisions', () => {
  let kit: WorkflowService;
  let versionId: string;

  beforeAll(async () => {
    kit = await startWorkflowService();
    versionId = (await createControl(kit)).current_version.control_version_id;
  });
  afterAll(async () => {
    await kit?.stop();
  });

  const post = (path: string, auth: string) => kit.http().post(`/api/evidence${path}`).set('Authorization', auth);

  async function runInReview(options: { contributor?: string } = {}) {
    const run = await createRun(kit, versionId);
    if (options.contributor)
      await post(`/runs/${run.run_id}/evidence`, options.contributor).send({ kind: 'note', title: 'Reviewed' }).expect(201);
    await post(`/runs/${run.run_id}/submit`, kit.auth.writer).expect(200);
    return run;
  }

  describe('creating a run is refused', () => {
    it('with 401 without credentials and 403 without evidence:write', async () => {
      await kit.expectNoChange(async () => {
        await kit
          .http()
          .post('/api/evidence/runs')
          .send({ control_version_id: versionId, period_start: '2026-01-01', period_end: '2026-01-31' })
          .expect(401);
        await post('/runs', kit.auth.approver)
          .send({ control_version_id: versionId, period_start: '2026-01-01', period_end: '2026-01-31' })
          .expect(403);
      });
    });

    it('with 415 when the body is not JSON', async () => {
      const response = await kit.expectNoChange(() =>
        post('/runs', kit.auth.writer)
          .type('form')
          .send({ control_version_id: versionId, period_start: '2026-01-01', period_end: '2026-01-31' })
          .expect(415),
      );
      expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
    });

    it.each([
      ['a missing period_end', { period_start: '2026-01-01' }, '/period_end'],
      [
        'a missing control_version_id',
        { control_version_id: undefined, period_start: '2026-01-01', period_end: '2026-01-02' },
        '/control_version_id',
      ],
      ['a date that does not exist', { period_start: '2026-02-30', period_end: '2026-03-31' }, '/period_start'],
      ['a date with a time', { period_start: '2026-02-01T00:00:00Z', period_end: '2026-03-31' }, '/period_start'],
      ['year 0000, which PostgreSQL cannot store', { period_start: '0000-01-01', period_end: '2026-03-31' }, '/period_start'],
      ['an unknown field', { period_start: '2026-01-01', period_end: '2026-01-02', status: 'approved' }, '/status'],
      [
        'a control_version_id that is not a UUID',
        { control_version_id: 'v1', period_start: '2026-01-01', period_end: '2026-01-02' },
        '/control_version_id',
      ],
    ])('with 400 for %s', async (_case, fields, pointer) => {
      const body = { control_version_id: versionId, ...fields };
      const response = await kit.expectNoChange(() => post('/runs', kit.auth.writer).send(body).expect(400));
      expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    });

    it('with 422 when the period starts after it ends', async () => {
      const response = await kit.expectNoChange(() =>
        post('/runs', kit.auth.writer)
          .send({ control_version_id: versionId, period_start: '2026-03-02', period_end: '2026-03-01' })
          .expect(422),
      );
      expect(response.body.detail).toMatch(/period_start/);
    });

    it('with 422 for an unknown control version', async () => {
      await kit.expectNoChange(() =>
        post('/runs', kit.auth.writer)
          .send({ control_version_id: '0b7e6c52-8d0b-4c4f-9a43-5f8a4b0f0e11', period_start: '2026-03-01', period_end: '2026-03-31' })
          .expect(422),
      );
    });

    it('with 409 naming the existing run when the version and period already have one', async () => {
      const first = await post('/runs', kit.auth.writer)
        .send({ control_version_id: versionId, period_start: '2026-04-01', period_end: '2026-06-30' })
        .expect(201);
      const second = await kit.expectNoChange(() =>
        post('/runs', kit.auth.contributor)
          .send({ control_version_id: versionId, period_start: '2026-04-01', period_end: '2026-06-30' })
          .expect(409),
      );
      expect(second.body.existing_run_id).toBe(first.body.run_id);
      expect(second.body.detail).toContain(first.body.run_id);
    });

    it('with exactly one 201 when the same run is created concurrently', async () => {
      const body = { control_version_id: versionId, period_start: '2026-07-01', period_end: '2026-09-30' };
      const responses = await Promise.all([1, 2, 3].map(() => post('/runs', kit.auth.writer).send(body)));
      expect(responses.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    });
  });

  it('creates an open run, audited once and announced once as evidence.run_created', async () => {
    const response = await kit.expectOneChange(
      'evidence.run_created',
      () =>
        post('/runs', kit.auth.writer)
          .send({ control_version_id: versionId, period_start: '2026-10-01', period_end: '2026-12-31' })
          .expect(201),
      (r) => r.body.run_id,
    );
    expect(response.body).toEqual({
      run_id: expect.any(String),
      control_version_id: versionId,
      period_start: '2026-10-01',
      period_end: '2026-12-31',
      status: 'open',
      created_by: people.writer,
      created_at: expect.any(String),
    });
    expect(response.headers.location).toBe(`/api/evidence/runs/${response.body.run_id}`);
    const read = await kit.http().get(`/api/evidence/runs/${response.body.run_id}`).set('Authorization', kit.auth.examiner).expect(200);
    expect(read.body).toMatchObject({ ...response.body, evidence: [], decisions: [], submitted_by: null });
  });

  it('answers 404 for an unknown or malformed run', async () => {
    await kit.http().get('/api/evidence/runs/1d1f7b6e-2222-4c4f-9a43-5f8a4b0f0e11').set('Authorization', kit.auth.writer).expect(404);
    await kit.http().get('/api/evidence/runs/42').set('Authorization', kit.auth.writer).expect(404);
    await post('/runs/42/submit', kit.auth.writer).expect(404);
    await post('/runs/1d1f7b6e-2222-4c4f-9a43-5f8a4b0f0e11/decision', kit.auth.approver)
      .send({ decision: 'approved', rationale: 'ok' })
      .expect(404);
  });

  describe('submission', () => {
    it('moves an open run to in_review once (audited, announced) and refuses a second submission with 409', async () => {
      const run = await createRun(kit, versionId);
      await kit.expectNoChange(() => post(`/runs/${run.run_id}/submit`, kit.auth.approver).expect(403));
      // The operation takes no body: one sent anyway is refused, not ignored.
      await kit.expectNoChange(() => post(`/runs/${run.run_id}/submit`, kit.auth.contributor).send({ __invalid: true }).expect(400));
      const submitted = await kit.expectOneChange(
        'evidence.run_submitted',
        () => post(`/runs/${run.run_id}/submit`, kit.auth.contributor).expect(200),
        () => run.run_id,
      );
      expect(submitted.body).toMatchObject({ run_id: run.run_id, status: 'in_review', submitted_by: people.contributor });
      await kit.expectNoChange(() => post(`/runs/${run.run_id}/submit`, kit.auth.writer).expect(409));
    });
  });

  describe('decisions', () => {
    it('are refused with 401/403 without evidence:approve and 409 unless the run is in review', async () => {
      const run = await createRun(kit, versionId);
      await kit.expectNoChange(async () => {
        await kit.http().post(`/api/evidence/runs/${run.run_id}/decision`).send({ decision: 'approved', rationale: 'fine' }).expect(401);
        await post(`/runs/${run.run_id}/decision`, kit.auth.writer).send({ decision: 'approved', rationale: 'fine' }).expect(403);
        await post(`/runs/${run.run_id}/decision`, kit.auth.approver).send({ decision: 'approved', rationale: 'fine' }).expect(409);
      });
    });

    it.each([
      ['no rationale', { decision: 'approved' }],
      ['a blank rationale', { decision: 'approved', rationale: '  \n ' }],
      ['an unknown decision', { decision: 'maybe', rationale: 'hmm' }],
      ['a NUL in the rationale', { decision: 'approved', rationale: 'ok\u0000' }],
      ['an unknown field', { decision: 'approved', rationale: 'ok', override: true }],
    ])('are refused with 400 for %s', async (_case, body) => {
      const run = await runInReview();
      await kit.expectNoChange(() => post(`/runs/${run.run_id}/decision`, kit.auth.approver).send(body).expect(400));
    });

    it('are refused with 403 to the run creator (segregation of duties)', async () => {
      const run = await runInReview();
      const response = await kit.expectNoChange(() =>
        post(`/runs/${run.run_id}/decision`, kit.auth.writerApprover)
          .send({ decision: 'approved', rationale: 'self-approval' })
          .expect(403),
      );
      expect(response.body.detail).toMatch(/created this run/);
    });

    it('are refused with 403 to anyone who added evidence (segregation of duties)', async () => {
      const run = await runInReview({ contributor: kit.auth.contributor });
      const response = await kit.expectNoChange(() =>
        post(`/runs/${run.run_id}/decision`, kit.auth.contributorApprover)
          .send({ decision: 'rejected', rationale: 'my own evidence' })
          .expect(403),
      );
      expect(response.body.detail).toMatch(/added evidence/);
    });

    it.each([
      ['in capitals', 'ANN-WRITER'],
      ['with a trailing space', 'ann-writer '],
      ['with a combining accent', 'ann-writ\u0065\u0301r'],
      ['in fullwidth letters', 'ａｎｎ-writer'],
    ])('are refused with 403 to the run creator signed in %s: one person, however the subject is spelt', async (_how, sub) => {
      const run = await runInReview();
      const token = await bearer('evidence:approve', sub);
      const response = await kit.expectNoChange(() =>
        post(`/runs/${run.run_id}/decision`, token).send({ decision: 'approved', rationale: 'self-approval in disguise' }).expect(403),
      );
      expect(response.body.detail).toMatch(/created this run/);
    });

    it.each([
      ['a zero-width space', 'ann-writer\u200b'],
      ['a tab inside', 'ann-\twriter'],
      ['a NUL', 'ann-writer\u0000'],
      ['a Cyrillic look-alike letter', 'ann-writ\u0435r'],
      ['a right-to-left override', '\u202eretirw-nna'],
    ])('are refused with 401 to a token whose subject holds %s', async (_what, sub) => {
      const run = await runInReview();
      const token = await bearer('evidence:approve', sub);
      const response = await kit.expectNoChange(() =>
        post(`/runs/${run.run_id}/decision`, token).send({ decision: 'approved', rationale: 'disguised' }).expect(401),
      );
      expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
    });

    it('approve a run in review once (audited, announced); a second decision is 409 and nothing is overridden', async () => {
      const run = await runInReview({ contributor: kit.auth.contributor });
      const decided = await kit.expectOneChange(
        'evidence.run_decided',
        () =>
          post(`/runs/${run.run_id}/decision`, kit.auth.approver)
            .send({ decision: 'approved', rationale: 'Sample of 25 reviewed, no exceptions' })
            .expect(201),
        () => run.run_id,
      );
      expect(decided.body).toEqual({
        decision_id: expect.any(String),
        run_id: run.run_id,
        decision: 'approved',
        rationale: 'Sample of 25 reviewed, no exceptions',
        decided_by: people.approver,
        decided_at: expect.any(String),
        status: 'approved',
      });
      const again = await kit.expectNoChange(() =>
        post(`/runs/${run.run_id}/decision`, kit.auth.approver).send({ decision: 'rejected', rationale: 'changed my mind' }).expect(409),
      );
      expect(again.body.detail).toMatch(/final/);
      const read = await kit.http().get(`/api/evidence/runs/${run.run_id}`).set('Authorization', kit.auth.approver).expect(200);
      expect(read.body.status).toBe('approved');
      expect(read.body.decisions).toHaveLength(1);
      await kit.expectNoChange(() => post(`/runs/${run.run_id}/submit`, kit.auth.writer).expect(409));
    });

    it('reject a run in review, and only one of two concurrent decisions wins', async () => {
      const run = await runInReview();
      const responses = await Promise.all([
        post(`/runs/${run.run_id}/decision`, kit.auth.approver).send({ decision: 'rejected', rationale: 'missing sign-off' }),
        post(`/runs/${run.run_id}/decision`, kit.auth.approver).send({ decision: 'approved', rationale: 'fine' }),
      ]);
      expect(responses.map((r) => r.status).sort()).toEqual([201, 409]);
      const decisions = await kit.db('evidence_run_decisions').where({ run_id: run.run_id });
      expect(decisions).toHaveLength(1);
    });
  });

  it('documents every runs operation in the OpenAPI document', async () => {
    const doc = await kit.http().get('/openapi.json').expect(200);
    expect(doc.body.paths['/runs'].post.responses['415']).toBeDefined();
    expect(doc.body.paths['/runs'].post.responses['422']).toBeDefined();
    expect(doc.body.paths['/runs/{id}'].get).toBeDefined();
    expect(doc.body.paths['/runs/{id}/submit'].post.security).toEqual([{ bearerJwt: ['evidence:write'] }]);
    expect(doc.body.paths['/runs/{id}/decision'].post.security).toEqual([{ bearerJwt: ['evidence:approve'] }]);
  });
});
