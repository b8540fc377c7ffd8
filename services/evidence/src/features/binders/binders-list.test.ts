import { createControl, createRun, people, startWorkflowService, type WorkflowService } from '../../testing/workflow-test-kit';

describe('binders list', () => {
  let kit: WorkflowService;
  let runA: string;
  let runB: string;
  const built: string[] = [];

  const get = (query: string, auth: string) => kit.http().get(`/api/evidence/binders${query}`).set('Authorization', auth);
  const build = async (runId: string) => {
    const response = await kit.http().post(`/api/evidence/binders/run/${runId}`).set('Authorization', kit.auth.writer).expect(201);
    built.unshift(response.body.binder_id);
    return response.body;
  };

  beforeAll(async () => {
    kit = await startWorkflowService();
    const version = (await createControl(kit)).current_version.control_version_id;
    runA = (await createRun(kit, version)).run_id;
    runB = (await createRun(kit, version)).run_id;
    await build(runA);
    await build(runB);
    await build(runA);
  });
  afterAll(async () => {
    await kit?.stop();
  });

  it('is refused with 401 without credentials, 403 without a read scope, 400 for a bad parameter or crafted cursor', async () => {
    await kit.http().get('/api/evidence/binders').expect(401);
    await get('', kit.auth.nobody).expect(403);
    for (const query of [
      '?run_id=42',
      '?colour=red',
      '?limit=0',
      '?cursor=%25%25',
      `?cursor=${Buffer.from('{"c":"2026-13-01T00:00:00.000000Z","i":"2b1f0d5e-1111-4111-8111-111111111111"}').toString('base64url')}`,
    ]) {
      const response = await get(query, kit.auth.writer).expect(400);
      expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
    }
  });

  it('lists binders newest first without their manifests, to writers, approvers and examiners', async () => {
    for (const auth of [kit.auth.writer, kit.auth.approver, kit.auth.examiner]) {
      const response = await get('', auth).expect(200);
      expect(response.body.items.map((b: { binder_id: string }) => b.binder_id)).toEqual(built);
    }
    const latest = await kit.http().get(`/api/evidence/binders/${built[0]}`).set('Authorization', kit.auth.examiner).expect(200);
    const { manifest: _manifest, ...summary } = latest.body;
    const listed = await get('?limit=1', kit.auth.examiner).expect(200);
    expect(listed.body.items).toEqual([{ ...summary, created_by: people.writer }]);
  });

  it('filters by run and pages with an opaque cursor, each binder once', async () => {
    const ofA = await get(`?run_id=${runA}`, kit.auth.writer).expect(200);
    expect(ofA.body.items.map((b: { run_id: string }) => b.run_id)).toEqual([runA, runA]);
    const ofB = await get(`?run_id=${runB.toUpperCase()}`, kit.auth.writer).expect(200);
    expect(ofB.body.items.map((b: { binder_id: string }) => b.binder_id)).toEqual([built[1]]);
    expect((await get('?run_id=0b7e6c52-8d0b-4c4f-9a43-5f8a4b0f0e11', kit.auth.writer).expect(200)).body).toEqual({
      items: [],
      next_cursor: null,
    });

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: { binder_id: string }[]; next_cursor: string | null } } = await get(
        `?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        kit.auth.writer,
      ).expect(200);
      seen.push(...page.body.items.map((b) => b.binder_id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(built);
  });

  it('is documented in the OpenAPI document', async () => {
    const doc = await kit.http().get('/openapi.json').expect(200);
    expect(doc.body.paths['/binders'].get.operationId).toBe('listBinders');
    expect(doc.body.paths['/binders'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['run_id', 'limit', 'cursor']);
  });
});
