import type request from 'supertest';
import { createControl, people, startWorkflowService, type WorkflowService } from '../../testing/workflow-test-kit';

const cursorOf = (fields: object) => Buffer.from(JSON.stringify(fields)).toString('base64url');

describe('runs list and the approval queue', () => {
  let kit: WorkflowService;
  let control: Awaited<ReturnType<typeof createControl>>;
  let other: Awaited<ReturnType<typeof createControl>>;
  /** Runs of `control` by period: Q1 open, Q2 in review, Q3 created by the contributor and submitted by the writer, Q4 in review with the contributor's evidence. */
  const runs: Record<string, string> = {};

  const get = (query: string, auth: string) => kit.http().get(`/api/evidence/runs${query}`).set('Authorization', auth);
  const ids = (response: request.Response) => response.body.items.map((run: { run_id: string }) => run.run_id);

  async function openRun(versionId: string, period_start: string, period_end: string, auth = kit.auth.writer): Promise<string> {
    const response = await kit
      .http()
      .post('/api/evidence/runs')
      .set('Authorization', auth)
      .send({ control_version_id: versionId, period_start, period_end })
      .expect(201);
    return response.body.run_id;
  }
  const submit = (runId: string, auth = kit.auth.writer) =>
    kit.http().post(`/api/evidence/runs/${runId}/submit`).set('Authorization', auth).expect(200);

  beforeAll(async () => {
    kit = await startWorkflowService();
    control = await createControl(kit, { key: 'LIST-1' });
    other = await createControl(kit, { key: 'LIST-2' });
    const version = control.current_version.control_version_id;
    runs.q1 = await openRun(version, '2026-01-01', '2026-03-31');
    runs.q2 = await openRun(version, '2026-04-01', '2026-06-30');
    await submit(runs.q2);
    runs.q3 = await openRun(version, '2026-07-01', '2026-09-30', kit.auth.contributor);
    await submit(runs.q3, kit.auth.writer);
    runs.q4 = await openRun(version, '2026-10-01', '2026-12-31');
    await kit
      .http()
      .post(`/api/evidence/runs/${runs.q4}/evidence`)
      .set('Authorization', kit.auth.contributor)
      .send({ kind: 'note', title: 'Sampled' })
      .expect(201);
    await submit(runs.q4);
    runs.other = await openRun(other.current_version.control_version_id, '2026-01-01', '2026-12-31');
  });
  afterAll(async () => {
    await kit?.stop();
  });

  describe('is refused', () => {
    it('with 401 without credentials and 403 without a read scope', async () => {
      await kit.http().get('/api/evidence/runs').expect(401);
      await get('', kit.auth.nobody).expect(403);
    });

    it.each([
      ['an unknown parameter', '?colour=red'],
      ['an unknown status', '?status=done'],
      ['a period bound that is not a date', '?period_from=2026-02-30'],
      ['a control that is neither an id nor a key', '?control=a%20b'],
      ['awaiting someone other than me', '?awaiting=paula'],
      ['a limit over 100', '?limit=101'],
      ['a cursor that is not base64url', '?cursor=%25%25%25'],
      ['a cursor this service did not issue', `?cursor=${cursorOf({ c: '2026-01-01', i: 'x' })}`],
      [
        'a crafted cursor in year 0',
        `?cursor=${cursorOf({ c: '0000-01-01T00:00:00.000000Z', i: '2b1f0d5e-1111-4111-8111-111111111111' })}`,
      ],
      [
        'a crafted cursor on February 30',
        `?cursor=${cursorOf({ c: '2026-02-30T00:00:00.000000Z', i: '2b1f0d5e-1111-4111-8111-111111111111' })}`,
      ],
      [
        'a crafted cursor at hour 24',
        `?cursor=${cursorOf({ c: '2026-01-01T24:00:00.000000Z', i: '2b1f0d5e-1111-4111-8111-111111111111' })}`,
      ],
    ])('with 400 problem+json for %s', async (_case, query) => {
      const response = await get(query, kit.auth.writer).expect(400);
      expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
    });

    it('with 422 when period_from is not before period_to (the range is half-open)', async () => {
      await get('?period_from=2026-05-01&period_to=2026-05-01', kit.auth.writer).expect(422);
    });

    it('with 403 for the approval queue without evidence:approve', async () => {
      const response = await get('?status=in_review&awaiting=me', kit.auth.writer).expect(403);
      expect(response.body.detail).toMatch(/evidence:approve/);
    });
  });

  it('lists runs newest first with their control, to writers, approvers and examiners alike', async () => {
    for (const auth of [kit.auth.writer, kit.auth.approver, kit.auth.examiner]) {
      const response = await get('', auth).expect(200);
      expect(ids(response)).toEqual([runs.other, runs.q4, runs.q3, runs.q2, runs.q1]);
    }
    const response = await get(`?control=${other.control_id}`, kit.auth.examiner).expect(200);
    expect(response.body).toEqual({
      items: [
        {
          run_id: runs.other,
          control_version_id: other.current_version.control_version_id,
          period_start: '2026-01-01',
          period_end: '2026-12-31',
          status: 'open',
          created_by: people.writer,
          created_at: expect.any(String),
          control_id: other.control_id,
          control_key: 'LIST-2',
          control_version: 1,
          submitted_by: null,
          submitted_at: null,
        },
      ],
      next_cursor: null,
    });
  });

  it.each([
    ['status', '?status=open', ['other', 'q1']],
    ['several statuses', '?status=open&status=in_review&control=LIST-1', ['q4', 'q3', 'q2', 'q1']],
    ['control by id', () => `?control=${control.control_id}`, ['q4', 'q3', 'q2', 'q1']],
    ['control by key, in any letter case', '?control=list-1', ['q4', 'q3', 'q2', 'q1']],
    [
      'a period overlapping [from, to): a run ending on period_from overlaps',
      '?control=LIST-1&period_from=2026-06-30&period_to=2026-07-01',
      ['q2'],
    ],
    [
      'a period overlapping [from, to): a run starting on period_to does not',
      '?control=LIST-1&period_from=2026-06-01&period_to=2026-10-01',
      ['q3', 'q2'],
    ],
    ['period_from alone', '?control=LIST-1&period_from=2026-10-01', ['q4']],
    ['created_by', `?created_by=${people.contributor}`, ['q3']],
  ])('filters by %s', async (_case, query, expected) => {
    const response = await get(typeof query === 'function' ? query() : query, kit.auth.writer).expect(200);
    expect(ids(response)).toEqual((expected as string[]).map((name) => runs[name]));
  });

  it('pages with an opaque cursor, each run once, ending with next_cursor null', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const response: request.Response = await get(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`, kit.auth.writer).expect(200);
      expect(response.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...ids(response));
      cursor = response.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([runs.other, runs.q4, runs.q3, runs.q2, runs.q1]);
  });

  describe('the approval queue (status=in_review&awaiting=me)', () => {
    it('lists the runs in review the approver may decide', async () => {
      const response = await get('?status=in_review&awaiting=me', kit.auth.approver).expect(200);
      expect(ids(response)).toEqual([runs.q4, runs.q3, runs.q2]);
    });

    it('never lists a run the approver created or submitted (segregation of duties)', async () => {
      // writerApprover is the writer: created q2 and q4, submitted q3
      const response = await get('?status=in_review&awaiting=me', kit.auth.writerApprover).expect(200);
      expect(ids(response)).toEqual([]);
    });

    it('never lists a run the approver added evidence to, and agrees with the decision endpoint', async () => {
      // contributorApprover is the contributor: created q3 (submitted by the writer) and added evidence to q4
      const queue = await get('?awaiting=me', kit.auth.contributorApprover).expect(200);
      expect(ids(queue)).toEqual([runs.q2]);
      for (const runId of [runs.q3, runs.q4]) {
        await kit.expectNoChange(() =>
          kit
            .http()
            .post(`/api/evidence/runs/${runId}/decision`)
            .set('Authorization', kit.auth.contributorApprover)
            .send({ decision: 'approved', rationale: 'mine' })
            .expect(403),
        );
      }
    });

    it('refuses the decision to the one who submitted the run, as the queue leaves it out', async () => {
      const response = await kit.expectNoChange(() =>
        kit
          .http()
          .post(`/api/evidence/runs/${runs.q3}/decision`)
          .set('Authorization', kit.auth.writerApprover)
          .send({ decision: 'approved', rationale: 'I submitted it' })
          .expect(403),
      );
      expect(response.body.detail).toMatch(/you submitted this run/);
    });

    it('drops a run once it is decided', async () => {
      await kit
        .http()
        .post(`/api/evidence/runs/${runs.q2}/decision`)
        .set('Authorization', kit.auth.approver)
        .send({ decision: 'approved', rationale: 'Sample clean' })
        .expect(201);
      const response = await get('?status=in_review&awaiting=me', kit.auth.approver).expect(200);
      expect(ids(response)).toEqual([runs.q4, runs.q3]);
    });
  });

  it('is documented in the OpenAPI document with its filters and scopes', async () => {
    const doc = await kit.http().get('/openapi.json').expect(200);
    const operation = doc.body.paths['/runs'].get;
    expect(operation.operationId).toBe('listRuns');
    expect(operation.parameters.map((p: { name: string }) => p.name)).toEqual([
      'status',
      'control',
      'period_from',
      'period_to',
      'created_by',
      'awaiting',
      'limit',
      'cursor',
    ]);
    expect(operation.responses['422']).toBeDefined();
  });
});
