import { createControl, startWorkflowService, type WorkflowService } from '../../testing/workflow-test-kit';

describe('controls and their versions', () => {
  let kit: WorkflowService;

  beforeAll(async () => {
    kit = await startWorkflowService();
  });
  afterAll(async () => {
    await kit?.stop();
  });

  describe('refusals', () => {
    it('answers 401 without credentials and 403 without the scope, for writes and reads', async () => {
      await kit.expectNoChange(async () => {
        await kit.http().post('/api/evidence/controls').send({ key: 'X-1', title: 'x' }).expect(401);
        const forbidden = await kit
          .http()
          .post('/api/evidence/controls')
          .set('Authorization', kit.auth.approver)
          .send({ key: 'X-1', title: 'x' })
          .expect(403);
        expect(forbidden.headers['content-type']).toMatch(/application\/problem\+json/);
        await kit
          .http()
          .post('/api/evidence/controls')
          .set('Authorization', kit.auth.examiner)
          .send({ key: 'X-1', title: 'x' })
          .expect(403);
      });
      await kit.http().get('/api/evidence/controls').expect(401);
      await kit.http().get('/api/evidence/controls').set('Authorization', kit.auth.nobody).expect(403);
    });

    it.each([
      ['no key', { title: 'x' }, '/key'],
      ['no title', { key: 'K-1' }, '/title'],
      ['an unknown field', { key: 'K-1', title: 'x', colour: 'red' }, '/colour'],
      ['a frequency outside the enum', { key: 'K-1', title: 'x', frequency: 'hourly' }, '/frequency'],
      [
        'evidence_requirements not an array of strings',
        { key: 'K-1', title: 'x', evidence_requirements: ['ok', 3] },
        '/evidence_requirements/1',
      ],
      ['a key with spaces', { key: 'K 1', title: 'x' }, '/key'],
      ['a NUL character, which PostgreSQL text cannot hold', { key: 'K-1', title: 'a\u0000b' }, '/title'],
    ])('refuses %s with 400 naming the field', async (_case, body, pointer) => {
      const response = await kit.expectNoChange(() =>
        kit.http().post('/api/evidence/controls').set('Authorization', kit.auth.writer).send(body).expect(400),
      );
      expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    });

    it('refuses a body that is not JSON with 415 and malformed JSON with 400', async () => {
      await kit
        .http()
        .post('/api/evidence/controls')
        .set('Authorization', kit.auth.writer)
        .set('Content-Type', 'text/plain')
        .send('key=1')
        .expect(415);
      await kit
        .http()
        .post('/api/evidence/controls')
        .set('Authorization', kit.auth.writer)
        .set('Content-Type', 'application/json')
        .send('{"key":')
        .expect(400);
    });

    it('refuses a taken key, in any letter case, with 409 naming the control', async () => {
      const control = await createControl(kit, { key: 'DUP-1' });
      const response = await kit.expectNoChange(() =>
        kit.http().post('/api/evidence/controls').set('Authorization', kit.auth.writer).send({ key: 'dup-1', title: 'Again' }).expect(409),
      );
      expect(response.body).toMatchObject({ status: 409, existing_control_id: control.control_id });
    });

    it('answers 404 for an unknown or malformed control id', async () => {
      await kit.http().get('/api/evidence/controls/6f1c1c2e-0000-4000-8000-000000000000').set('Authorization', kit.auth.writer).expect(404);
      await kit.http().get('/api/evidence/controls/not-a-uuid').set('Authorization', kit.auth.writer).expect(404);
      await kit
        .http()
        .post('/api/evidence/controls/not-a-uuid/versions')
        .set('Authorization', kit.auth.writer)
        .send({ title: 'x' })
        .expect(404);
    });

    it('refuses a new version that changes the key or changes nothing with 400', async () => {
      const control = await createControl(kit);
      await kit.expectNoChange(async () => {
        await kit
          .http()
          .post(`/api/evidence/controls/${control.control_id}/versions`)
          .set('Authorization', kit.auth.writer)
          .send({ key: 'NEW' })
          .expect(400);
        await kit
          .http()
          .post(`/api/evidence/controls/${control.control_id}/versions`)
          .set('Authorization', kit.auth.writer)
          .send({})
          .expect(400);
      });
    });
  });

  it('creates a control with version 1, audited once and announced once as evidence.control_created', async () => {
    const response = await kit.expectOneChange(
      'evidence.control_created',
      () =>
        kit
          .http()
          .post('/api/evidence/controls')
          .set('Authorization', kit.auth.writer)
          .send({
            key: 'AC-2',
            title: 'Account management',
            description: 'Accounts are reviewed',
            owner: 'IT',
            frequency: 'monthly',
            test_procedure: 'Sample 25',
            evidence_requirements: ['user list', 'review sign-off'],
          })
          .expect(201),
      (r) => r.body.control_id,
    );
    expect(response.headers.location).toBe(`/api/evidence/controls/${response.body.control_id}`);
    expect(response.body).toEqual({
      control_id: expect.any(String),
      key: 'AC-2',
      title: 'Account management',
      description: 'Accounts are reviewed',
      owner: 'IT',
      frequency: 'monthly',
      test_procedure: 'Sample 25',
      evidence_requirements: ['user list', 'review sign-off'],
      created_by: 'ann-writer',
      created_at: expect.any(String),
      current_version: { control_version_id: expect.any(String), version: 1, created_at: expect.any(String) },
    });
    const event = kit.events.received.find(
      (e) => e.routingKey === 'evidence.control_created' && e.body.subject === response.body.control_id,
    );
    expect(event?.body.data).toEqual({
      control_id: response.body.control_id,
      key: 'AC-2',
      control_version_id: response.body.current_version.control_version_id,
      version: 1,
    });
  });

  it('adds immutable versions n+1 carrying over unchanged fields, and lists them all', async () => {
    const control = await createControl(kit, { description: 'first', owner: 'Ops', evidence_requirements: ['a'] });
    const v2 = await kit.expectOneChange(
      'evidence.control_version_added',
      () =>
        kit
          .http()
          .post(`/api/evidence/controls/${control.control_id}/versions`)
          .set('Authorization', kit.auth.writer)
          .send({ title: 'Renamed', owner: null })
          .expect(201),
      () => control.control_id,
    );
    expect(v2.body).toMatchObject({
      title: 'Renamed',
      description: 'first',
      owner: null,
      evidence_requirements: ['a'],
      current_version: { version: 2 },
    });
    const v3 = await kit
      .http()
      .post(`/api/evidence/controls/${control.control_id}/versions`)
      .set('Authorization', kit.auth.writer)
      .send({ frequency: 'annual' })
      .expect(201);
    expect(v3.body.current_version.version).toBe(3);

    const read = await kit.http().get(`/api/evidence/controls/${control.control_id}`).set('Authorization', kit.auth.examiner).expect(200);
    expect(read.body.versions.map((v: { version: number; title: string; frequency: string }) => [v.version, v.title, v.frequency])).toEqual(
      [
        [1, 'Access reviews', 'quarterly'],
        [2, 'Renamed', 'quarterly'],
        [3, 'Renamed', 'annual'],
      ],
    );
    expect(read.body.current_version.control_version_id).toBe(v3.body.current_version.control_version_id);
  });

  it('keeps versions immutable at the database', async () => {
    const control = await createControl(kit);
    await expect(kit.db('evidence_control_versions').where({ control_id: control.control_id }).update({ title: 'edited' })).rejects.toThrow(
      /append-only/,
    );
    await expect(kit.db('evidence_control_versions').where({ control_id: control.control_id }).delete()).rejects.toThrow(/append-only/);
  });

  it('lists controls by key with keyset pagination, readable by approvers and examiners', async () => {
    for (const key of ['PG-3', 'PG-1', 'PG-2']) await createControl(kit, { key });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: Record<string, string | number> = { limit: 2, ...(cursor ? { cursor } : {}) };
      const page = await kit.http().get('/api/evidence/controls').query(query).set('Authorization', kit.auth.approver).expect(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items.map((c: { key: string }) => c.key));
      cursor = page.body.next_cursor;
    } while (cursor);
    const pg = seen.filter((key) => key.startsWith('PG-'));
    expect(pg).toEqual(['PG-1', 'PG-2', 'PG-3']);
    expect(new Set(seen).size).toBe(seen.length);
    await kit.http().get('/api/evidence/controls').query({ limit: 0 }).set('Authorization', kit.auth.writer).expect(400);
    await kit.http().get('/api/evidence/controls').query({ cursor: '!!!' }).set('Authorization', kit.auth.writer).expect(400);
    const forged = Buffer.from(JSON.stringify({ k: '\u0000' })).toString('base64url');
    await kit.http().get('/api/evidence/controls').query({ cursor: forged }).set('Authorization', kit.auth.writer).expect(400);
  });

  it('documents every controls operation in the OpenAPI document', async () => {
    const doc = await kit.http().get('/openapi.json').expect(200);
    expect(Object.keys(doc.body.paths['/controls'])).toEqual(expect.arrayContaining(['get', 'post']));
    expect(doc.body.paths['/controls/{id}'].get.security).toEqual([
      { bearerJwt: ['evidence:write'] },
      { bearerJwt: ['evidence:approve'] },
      { bearerJwt: ['audit:read'] },
    ]);
    expect(doc.body.paths['/controls/{id}/versions'].post.responses['201']).toBeDefined();
  });
});
