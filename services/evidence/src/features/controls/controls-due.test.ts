import { createControl, startWorkflowService, type WorkflowService } from '../../testing/workflow-test-kit';
import { currentPeriod } from './control-periods';

describe('GET /api/evidence/controls/due: controls whose current period has no run', () => {
  let kit: WorkflowService;
  const controls: Record<string, Awaited<ReturnType<typeof createControl>>> = {};

  const due = (query = '', auth = kit.auth.writer) => kit.http().get(`/api/evidence/controls/due${query}`).set('Authorization', auth);
  const openRun = (versionId: string, period_start: string, period_end: string) =>
    kit
      .http()
      .post('/api/evidence/runs')
      .set('Authorization', kit.auth.writer)
      .send({ control_version_id: versionId, period_start, period_end })
      .expect(201);

  beforeAll(async () => {
    kit = await startWorkflowService();
    for (const [key, frequency] of [
      ['DUE-A', 'daily'],
      ['DUE-B', 'weekly'],
      ['DUE-C', 'monthly'],
      ['DUE-D', 'quarterly'],
      ['DUE-E', 'annual'],
      ['DUE-F', 'continuous'],
      ['DUE-G', 'ad_hoc'],
      ['DUE-H', null],
    ] as const) {
      controls[key] = await createControl(kit, { key, frequency });
    }
  });
  afterAll(async () => {
    await kit?.stop();
  });

  it('is refused with 401 without credentials, 403 without evidence:write, 400 for a bad parameter or cursor', async () => {
    await kit.http().get('/api/evidence/controls/due').expect(401);
    await due('', kit.auth.approver).expect(403);
    await due('', kit.auth.examiner).expect(403);
    for (const query of [
      '?limit=0',
      '?colour=red',
      '?cursor=%25%25',
      `?cursor=${Buffer.from('{"k":"no spaces allowed"}').toString('base64url')}`,
    ]) {
      const response = await due(query).expect(400);
      expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
    }
  });

  it('lists every control with a periodic frequency and no run, by key, with its current period in UTC', async () => {
    const now = new Date();
    const response = await due().expect(200);
    const periodic = [
      ['DUE-A', 'daily'],
      ['DUE-B', 'weekly'],
      ['DUE-C', 'monthly'],
      ['DUE-D', 'quarterly'],
      ['DUE-E', 'annual'],
    ] as const;
    const expected = periodic.map(([key, frequency]) => ({
      control_id: controls[key].control_id,
      key,
      title: 'Access reviews',
      owner: null,
      frequency,
      control_version_id: controls[key].current_version.control_version_id,
      version: 1,
      ...currentPeriod(frequency, now),
    }));
    expect(response.body).toEqual({ items: expected, next_cursor: null });
  });

  it('leaves out a control once a run of any of its versions overlaps the current period, not for a run of an earlier period', async () => {
    const now = new Date();
    const quarter = currentPeriod('quarterly', now);
    const month = currentPeriod('monthly', now);
    const dayBeforeMonth = new Date(Date.parse(month.period_start) - 86_400_000).toISOString().slice(0, 10);
    await openRun(controls['DUE-C'].current_version.control_version_id, dayBeforeMonth, dayBeforeMonth);
    // a run of version 1 covering one day of the quarter still counts once version 2 is current
    await openRun(controls['DUE-D'].current_version.control_version_id, quarter.period_end, quarter.period_end);
    await kit
      .http()
      .post(`/api/evidence/controls/${controls['DUE-D'].control_id}/versions`)
      .set('Authorization', kit.auth.writer)
      .send({ title: 'Access reviews v2' })
      .expect(201);
    // the current version's frequency decides
    await kit
      .http()
      .post(`/api/evidence/controls/${controls['DUE-E'].control_id}/versions`)
      .set('Authorization', kit.auth.writer)
      .send({ frequency: 'ad_hoc' })
      .expect(201);
    await kit
      .http()
      .post(`/api/evidence/controls/${controls['DUE-G'].control_id}/versions`)
      .set('Authorization', kit.auth.writer)
      .send({ frequency: 'daily' })
      .expect(201);

    const response = await due().expect(200);
    expect(response.body.items.map((control: { key: string; version: number }) => `${control.key} v${control.version}`)).toEqual([
      'DUE-A v1',
      'DUE-B v1',
      'DUE-C v1',
      'DUE-G v2',
    ]);
  });

  it('pages by key with an opaque cursor', async () => {
    const first = await due('?limit=3').expect(200);
    expect(first.body.items.map((control: { key: string }) => control.key)).toEqual(['DUE-A', 'DUE-B', 'DUE-C']);
    const second = await due(`?limit=3&cursor=${first.body.next_cursor}`).expect(200);
    expect(second.body).toEqual({ items: [expect.objectContaining({ key: 'DUE-G' })], next_cursor: null });
  });

  it('is documented in the OpenAPI document', async () => {
    const doc = await kit.http().get('/openapi.json').expect(200);
    expect(doc.body.paths['/controls/due'].get).toMatchObject({
      operationId: 'listDueControls',
      security: [{ bearerJwt: ['evidence:write'] }],
    });
  });
});
