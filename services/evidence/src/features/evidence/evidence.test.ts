import { execFileSync } from 'node:child_process';
import { connect } from 'node:net';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { canonicalJson } from '@platform/canonical-json';
import { readAll, STORAGE_KINDS, storageSettingsPerKind } from '@platform/files/src/testing/s3-test-server';
import { bearer, binaryBody, eventually } from '@platform/testing';
import { createControl, createRun, people, startWorkflowService, type WorkflowService } from '../../testing/workflow-test-kit';

const MAX_BYTES = 64 * 1024;
const PNG = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'),
  Buffer.from('0000000a49444154789c63000100000500010d0a2db40000000049454e44ae426082', 'hex'),
]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(64, 7)]);
const CSV = Buffer.from('user,reviewed\nann,yes\nbob,no — revoked\n', 'utf8');
const NOT_UTF8 = Buffer.from([0x80, 0x81, 0xc3, 0x28, 0xfe, 0x01, 0x02, 0x03, 0x04, 0x05]);

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

const storageSettings = storageSettingsPerKind();

describe.each(STORAGE_KINDS)('evidence (%s storage)', (storageKind) => {
  let kit: WorkflowService;
  let versionId: string;

  beforeAll(async () => {
    kit = await startWorkflowService({
      EVIDENCE_MAX_BYTES: String(MAX_BYTES),
      ...storageSettings(storageKind),
    } as Record<string, string>);
    versionId = (await createControl(kit)).current_version.control_version_id;
  });
  afterAll(async () => {
    await kit?.stop();
  });

  const addJson = (runId: string, body: object, auth = kit.auth.writer) =>
    kit.http().post(`/api/evidence/runs/${runId}/evidence`).set('Authorization', auth).send(body);
  const upload = (runId: string, bytes: Buffer, filename: string, contentType: string, fields: Record<string, string> = {}) => {
    let req = kit.http().post(`/api/evidence/runs/${runId}/evidence`).set('Authorization', kit.auth.writer);
    for (const [name, value] of Object.entries(fields)) req = req.field(name, value);
    return req.attach('file', bytes, { filename, contentType });
  };
  /** Names of the stored files (content addresses) and of the temporary ones. */
  const listed = async () => (await kit.files.list()).map((name) => path.basename(name));
  const storedFiles = async () => (await listed()).filter((name) => /^[0-9a-f]{64}$/.test(name));
  const tempFiles = async () => (await kit.files.list()).filter((name) => name.includes('.incoming'));
  /** A refused upload leaves no row, no audit record, no event, no stored or temporary file. */
  const expectNothingLeft = async <T>(refused: () => Promise<T>) => {
    const files = await storedFiles();
    const [{ count: rows }] = await kit.db('evidence_items').count({ count: '*' });
    const result = await kit.expectNoChange(refused);
    expect(await storedFiles()).toEqual(files);
    expect(await tempFiles()).toEqual([]);
    const [{ count: after }] = await kit.db('evidence_items').count({ count: '*' });
    expect(after).toBe(rows);
    return result;
  };

  describe('refusals', () => {
    let runId: string;
    beforeAll(async () => {
      runId = (await createRun(kit, versionId)).run_id;
    });

    it('401 without credentials, 403 without evidence:write, 404 for an unknown run', async () => {
      await expectNothingLeft(async () => {
        await kit.http().post(`/api/evidence/runs/${runId}/evidence`).send({ kind: 'note', title: 'x' }).expect(401);
        await addJson(runId, { kind: 'note', title: 'x' }, kit.auth.approver).expect(403);
        await addJson(runId, { kind: 'note', title: 'x' }, kit.auth.examiner).expect(403);
        await addJson('5e0cf5d2-1111-4c4f-9a43-5f8a4b0f0e11', { kind: 'note', title: 'x' }).expect(404);
        await addJson('nope', { kind: 'note', title: 'x' }).expect(404);
      });
    });

    it('415 for a body that is neither JSON nor multipart', async () => {
      const response = await expectNothingLeft(() =>
        kit
          .http()
          .post(`/api/evidence/runs/${runId}/evidence`)
          .set('Authorization', kit.auth.writer)
          .set('Content-Type', 'text/plain')
          .send('a note')
          .expect(415),
      );
      expect(response.body.detail).toMatch(/application\/json or multipart\/form-data/);
    });

    it.each([
      ['no kind', { title: 'x' }, '/kind'],
      ['no title', { kind: 'note' }, '/title'],
      ['an unknown kind', { kind: 'video', title: 'x' }, '/kind'],
      ['an unknown field', { kind: 'note', title: 'x', sha256: 'abc' }, '/sha256'],
      ['a link without url', { kind: 'link', title: 'x' }, '/url'],
      ['a link with a relative url', { kind: 'link', title: 'x', url: '/wiki/page' }, '/url'],
      ['a link with an ftp url', { kind: 'link', title: 'x', url: 'ftp://files.example.com/a' }, '/url'],
      ['a link whose url WHATWG cannot parse', { kind: 'link', title: 'x', url: 'http://[::1' }, '/url'],
      ['a link without a host', { kind: 'link', title: 'x', url: 'http:relative' }, '/url'],
      ['a record without data', { kind: 'record', title: 'x' }, '/data'],
      ['a record whose data is not an object', { kind: 'record', title: 'x', data: [1, 2] }, '/data'],
      ['a note with data', { kind: 'note', title: 'x', data: { a: 1 } }, '/data'],
      ['a note with a url', { kind: 'note', title: 'x', url: 'https://example.com' }, '/url'],
      ['collected_at without a time zone', { kind: 'note', title: 'x', collected_at: '2026-01-01T10:00:00' }, '/collected_at'],
      ['collected_at in year 0000', { kind: 'note', title: 'x', collected_at: '0000-01-01T10:00:00Z' }, '/collected_at'],
      [
        'collected_at with an offset of +20:00, which PostgreSQL refuses',
        { kind: 'note', title: 'x', collected_at: '2026-01-01T10:00:00+20:00' },
        '/collected_at',
      ],
      [
        'collected_at with an offset beyond -15:59',
        { kind: 'note', title: 'x', collected_at: '2026-01-01T10:00:00-16:00' },
        '/collected_at',
      ],
      ['collected_at on February 30', { kind: 'note', title: 'x', collected_at: '2026-02-30T10:00:00Z' }, '/collected_at'],
      ['a NUL in the title', { kind: 'note', title: 'x\u0000' }, '/title'],
      ['a right-to-left override in the title', { kind: 'note', title: 'approved \u202Edesolc' }, '/title'],
      ['an isolate in a record value', { kind: 'record', title: 'x', data: { owner: '\u2067ecila\u2069' } }, '/data/owner'],
      ['supersedes that is not a UUID', { kind: 'note', title: 'x', supersedes: 'e-1' }, '/supersedes'],
    ])('400 for %s', async (_case, body, pointer) => {
      const response = await expectNothingLeft(() => addJson(runId, body).expect(400));
      expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    });

    it('413 for a file over EVIDENCE_MAX_BYTES', async () => {
      const response = await expectNothingLeft(() => upload(runId, Buffer.alloc(MAX_BYTES + 1, 'a'), 'big.txt', 'text/plain').expect(413));
      expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
    });

    it('415 for bytes that lie about their type, and for bytes of no accepted type', async () => {
      await expectNothingLeft(async () => {
        await upload(runId, GIF, 'report.pdf', 'application/pdf').expect(415);
        await upload(runId, NOT_UTF8, 'data.csv', 'text/csv').expect(415);
        await upload(runId, Buffer.from('text with a \u0000 NUL'), 'notes.txt', 'text/plain').expect(415);
      });
    });

    it('400 for a multipart body without a file, with two files, with an unknown field, or with an empty file', async () => {
      await expectNothingLeft(async () => {
        await kit
          .http()
          .post(`/api/evidence/runs/${runId}/evidence`)
          .set('Authorization', kit.auth.writer)
          .field('title', 'no file')
          .expect(400);
        await kit
          .http()
          .post(`/api/evidence/runs/${runId}/evidence`)
          .set('Authorization', kit.auth.writer)
          .attach('file', PNG, { filename: 'a.png', contentType: 'image/png' })
          .attach('file', PDF, { filename: 'b.pdf', contentType: 'application/pdf' })
          .expect(400);
        await upload(runId, PNG, 'a.png', 'image/png', { colour: 'red' }).expect(400);
        await upload(runId, PNG, 'a.png', 'image/png', { kind: 'note' }).expect(400);
        await upload(runId, PNG, 'a.png', 'image/png', { title: 'invoice \u202Egnp.exe' }).expect(400);
        await upload(runId, Buffer.alloc(0), 'empty.txt', 'text/plain').expect(400);
        await kit
          .http()
          .post(`/api/evidence/runs/${runId}/evidence`)
          .set('Authorization', kit.auth.writer)
          .set('Content-Type', 'multipart/form-data')
          .send('garbage')
          .expect(400);
      });
    });

    it('leaves nothing behind when the client goes away in the middle of a file', async () => {
      const [{ count: rowsBefore }] = await kit.db('evidence_items').count({ count: '*' });
      const boundary = 'xBOUNDARYx';
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="half.txt"\r\nContent-Type: text/plain\r\n\r\n`;
      const socket = connect(kit.service.port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST /api/evidence/runs/${runId}/evidence HTTP/1.1\r\nHost: x\r\nAuthorization: ${kit.auth.writer}\r\n` +
          `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${MAX_BYTES}\r\n\r\n${head}${'a'.repeat(20000)}`,
      );
      // A local temporary file shows the upload under way; S3 shows no object before the multipart upload completes.
      if (storageKind === 'local') await eventually(async () => (await tempFiles()).length > 0 || undefined, 5000);
      else await new Promise((resolve) => setTimeout(resolve, 300));
      socket.destroy();
      await eventually(async () => (await tempFiles()).length === 0, 5000);
      const [{ count: rowsAfter }] = await kit.db('evidence_items').count({ count: '*' });
      expect(rowsAfter).toBe(rowsBefore);
      await kit.http().get('/healthz').expect(200);
    });

    it('400 for a body that ends in the middle of the file part, and the process stays up', async () => {
      await expectNothingLeft(async () => {
        const truncated = `--XX\r\nContent-Disposition: form-data; name="title"\r\n\r\nhalf\r\n--XX\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 abc`;
        const response = await kit
          .http()
          .post(`/api/evidence/runs/${runId}/evidence`)
          .set('Authorization', kit.auth.writer)
          .set('Content-Type', 'multipart/form-data; boundary=XX')
          .send(truncated)
          .expect(400);
        expect(response.body.detail).toMatch(/ended before the file was complete|malformed/);
      });
      await kit.http().get('/healthz').expect(200);
    });

    it('422 when supersedes names evidence of another run or no evidence at all', async () => {
      const other = await createRun(kit, versionId);
      const foreign = await addJson(other.run_id, { kind: 'note', title: 'elsewhere' }).expect(201);
      await expectNothingLeft(async () => {
        await addJson(runId, { kind: 'note', title: 'fix', supersedes: foreign.body.evidence_id }).expect(422);
        await addJson(runId, { kind: 'note', title: 'fix', supersedes: '3c9d2b1a-0000-4c4f-9a43-5f8a4b0f0e11' }).expect(422);
        await upload(runId, PNG, 'fix.png', 'image/png', { supersedes: foreign.body.evidence_id }).expect(422);
      });
    });

    const rawJson = (text: string) =>
      kit
        .http()
        .post(`/api/evidence/runs/${runId}/evidence`)
        .set('Authorization', kit.auth.writer)
        .set('Content-Type', 'application/json')
        .send(text);

    it.each([
      ['an integer beyond 2^53, which parsing would round', '{"kind":"record","title":"x","data":{"n":12345678901234567890}}', '/data/n'],
      [
        'data nested 8,000 levels',
        `{"kind":"record","title":"x","data":{"a":${'['.repeat(8000)}${']'.repeat(8000)}}}`,
        `/data/a${'/0'.repeat(62)}`,
      ],
    ])('400 for %s, naming its pointer', async (_case, text, pointer) => {
      const response = await expectNothingLeft(() => rawJson(text).expect(400));
      expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual([pointer]);
    });

    it('400 for a multipart collected_at with an offset PostgreSQL refuses', async () => {
      const response = await expectNothingLeft(() =>
        upload(runId, PNG, 'shot.png', 'image/png', { collected_at: '2026-01-01T10:00:00+20:00' }).expect(400),
      );
      expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/collected_at']);
    });

    it('refuses to canonicalise a value nested beyond the limit instead of overflowing the stack', () => {
      let deep: unknown = 'bottom';
      for (let i = 0; i < 8000; i++) deep = [deep];
      expect(() => canonicalJson({ data: deep })).toThrow(/nests deeper than/);
    });

    it('409 when the run is not open, for JSON and for files', async () => {
      const run = await createRun(kit, versionId);
      await kit.http().post(`/api/evidence/runs/${run.run_id}/submit`).set('Authorization', kit.auth.writer).expect(200);
      await expectNothingLeft(async () => {
        await addJson(run.run_id, { kind: 'note', title: 'late' }).expect(409);
        let deep: object = { level: 63 };
        for (let i = 0; i < 61; i++) deep = { a: deep };
        await addJson(run.run_id, { kind: 'record', title: 'deep but acceptable', data: deep }).expect(409);
        await upload(run.run_id, PNG, 'late.png', 'image/png').expect(409);
      });
    });
  });

  it('stores a note as canonical JSON: sha256 over its RFC 8785 form, audited once and announced once', async () => {
    const run = await createRun(kit, versionId);
    const body = {
      title: 'Quarterly review held',
      kind: 'note',
      description: 'Minutes attached — «ok»',
      source: 'meeting',
      collected_at: `${run.period_start}T10:00:00Z`,
    };
    const response = await kit.expectOneChange(
      'evidence.evidence_added',
      () => addJson(run.run_id, body).expect(201),
      () => run.run_id,
    );
    const canonical = canonicalJson(body);
    expect(response.body).toEqual({
      evidence_id: expect.any(String),
      run_id: run.run_id,
      kind: 'note',
      title: 'Quarterly review held',
      sha256: sha256(canonical),
      size_bytes: Buffer.byteLength(canonical),
      content_type: 'application/json',
      submitted_by: people.writer,
      submitted_at: expect.any(String),
      out_of_period: false,
      supersedes: null,
      collected_at: '2026-01-01T10:00:00.000Z'.replace('2026-01-01', run.period_start),
    });
    const event = kit.events.received.find(
      (e) => e.routingKey === 'evidence.evidence_added' && e.body.data.evidence_id === response.body.evidence_id,
    );
    expect(event?.body.data).toMatchObject({ run_id: run.run_id, sha256: response.body.sha256, kind: 'note' });
    await expect(kit.db('evidence_items').where({ evidence_id: response.body.evidence_id }).update({ title: 'edited' })).rejects.toThrow(
      /append-only/,
    );
  });

  it('accepts links and records, and flags evidence collected outside the run period', async () => {
    const run = await createRun(kit, versionId);
    const link = await addJson(run.run_id, {
      kind: 'link',
      title: 'Ticket',
      url: 'https://tickets.example.com/T-1',
      collected_at: '2025-12-31T23:59:59Z',
    }).expect(201);
    expect(link.body.out_of_period).toBe(true);
    const record = await addJson(run.run_id, {
      kind: 'record',
      title: 'Export',
      data: { users: 3, b: [1, { z: 1, a: 2 }] },
      collected_at: `${run.period_end}T23:59:59.999Z`,
    }).expect(201);
    expect(record.body.out_of_period).toBe(false);
    const late = await addJson(run.run_id, { kind: 'note', title: 'Late', collected_at: '2030-01-01T00:00:00+02:00' }).expect(201);
    const unstorable = await addJson(run.run_id, { kind: 'record', title: 'Odd data', data: { raw: 'a\u0000b' } }).expect(400);
    expect(unstorable.body.errors).toEqual([{ pointer: '/data/raw', message: 'must be well-formed Unicode text without NUL characters' }]);
    expect(late.body.out_of_period).toBe(true);
    const read = await kit.http().get(`/api/evidence/runs/${run.run_id}`).set('Authorization', kit.auth.examiner).expect(200);
    expect(read.headers['cache-control']).toBe('no-store');
    expect(read.body.evidence.map((e: { title: string; out_of_period: boolean }) => [e.title, e.out_of_period])).toEqual([
      ['Ticket', true],
      ['Export', false],
      ['Late', true],
    ]);
  });

  it('corrects evidence by superseding it: the old item stays, and can be superseded only once', async () => {
    const run = await createRun(kit, versionId);
    const original = await addJson(run.run_id, { kind: 'note', title: 'Count: 12' }).expect(201);
    const correction = await addJson(
      run.run_id,
      { kind: 'note', title: 'Count: 13', supersedes: original.body.evidence_id },
      kit.auth.contributor,
    ).expect(201);
    expect(correction.body.supersedes).toBe(original.body.evidence_id);
    const read = await kit.http().get(`/api/evidence/runs/${run.run_id}`).set('Authorization', kit.auth.writer).expect(200);
    expect(read.body.evidence).toEqual([
      expect.objectContaining({
        evidence_id: original.body.evidence_id,
        superseded_by: correction.body.evidence_id,
        sha256: original.body.sha256,
      }),
      expect.objectContaining({
        evidence_id: correction.body.evidence_id,
        supersedes: original.body.evidence_id,
        superseded_by: null,
        submitted_by: people.contributor,
      }),
    ]);
    const twice = await expectNothingLeft(() =>
      addJson(run.run_id, { kind: 'note', title: 'Count: 14', supersedes: original.body.evidence_id }).expect(409),
    );
    expect(twice.body.superseded_by).toBe(correction.body.evidence_id);
  });

  it('streams a file to content-addressed storage: sha256 equals sha256sum of the bytes, typed by its bytes', async () => {
    const run = await createRun(kit, versionId);
    const response = await kit.expectOneChange(
      'evidence.evidence_added',
      () =>
        upload(run.run_id, PNG, '../../etc/screenshot.png', 'application/octet-stream', {
          description: 'Console',
          collected_at: `${run.period_start}T08:00:00Z`,
        }).expect(201),
      () => run.run_id,
    );
    const dir = mkdtempSync(path.join(tmpdir(), 'evidence-sum-'));
    try {
      writeFileSync(path.join(dir, 'upload.png'), PNG);
      const sum = execFileSync('sha256sum', ['upload.png'], { cwd: dir, encoding: 'utf8' }).split(' ')[0];
      expect(response.body).toMatchObject({
        kind: 'file',
        title: 'screenshot.png',
        sha256: sum,
        size_bytes: PNG.length,
        content_type: 'image/png',
        out_of_period: false,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect((await readAll(await kit.files.open(response.body.sha256))).equals(PNG)).toBe(true);
    expect(await tempFiles()).toEqual([]);
    const item = await kit.db('evidence_items').where({ evidence_id: response.body.evidence_id }).first();
    expect(item.file_name).toBe('screenshot.png');
  });

  it('accepts PDF, CSV (text by valid UTF-8) and a title sent after the file; the same bytes are stored once', async () => {
    const run = await createRun(kit, versionId);
    const pdf = await upload(run.run_id, PDF, 'policy.pdf', 'application/pdf').expect(201);
    expect(pdf.body.content_type).toBe('application/pdf');
    const csv = await kit
      .http()
      .post(`/api/evidence/runs/${run.run_id}/evidence`)
      .set('Authorization', kit.auth.writer)
      .attach('file', CSV, { filename: 'users.csv', contentType: 'text/csv' })
      .field('title', 'User list')
      .expect(201);
    expect(csv.body).toMatchObject({ title: 'User list', content_type: 'text/csv', sha256: sha256(CSV) });
    const again = await upload(run.run_id, PDF, 'policy-copy.pdf', 'application/pdf', { title: 'Same policy' }).expect(201);
    expect(again.body.sha256).toBe(pdf.body.sha256);
    expect((await storedFiles()).filter((name) => name === pdf.body.sha256)).toHaveLength(1);
  });

  it('serves the content: a file as an attachment with its name and type, a note or record as its stored JSON; refusals are problem+json', async () => {
    const run = await createRun(kit, versionId);
    const file = await upload(run.run_id, CSV, 'users é.csv', 'text/csv').expect(201);
    const note = await addJson(run.run_id, { kind: 'note', title: 'Reviewed', description: 'All accounts reviewed' }).expect(201);
    const record = await addJson(run.run_id, { kind: 'record', title: 'Counts', data: { users: 3, revoked: 1 } }).expect(201);
    const content = (id: string, auth = kit.auth.approver) =>
      kit.http().get(`/api/evidence/evidence/${id}/content`).set('Authorization', auth).buffer(true).parse(binaryBody);

    const downloaded = await content(file.body.evidence_id).expect(200);
    expect(downloaded.headers['content-disposition']).toMatch(/^attachment; /);
    expect(downloaded.headers['content-disposition']).toContain(`filename*=UTF-8''users%20%C3%A9.csv`);
    expect(downloaded.headers['content-type']).toMatch(/^text\/csv/);
    expect(downloaded.headers['x-content-type-options']).toBe('nosniff');
    expect(sha256(downloaded.body as Buffer)).toBe(file.body.sha256);

    const noteText = await content(note.body.evidence_id, kit.auth.examiner).expect(200);
    expect(noteText.headers['content-type']).toMatch(/^application\/json/);
    expect(sha256(noteText.body as Buffer)).toBe(note.body.sha256);
    expect(JSON.parse((noteText.body as Buffer).toString('utf8'))).toMatchObject({ description: 'All accounts reviewed' });
    const recordText = await content(record.body.evidence_id, kit.auth.writer).expect(200);
    expect(JSON.parse((recordText.body as Buffer).toString('utf8'))).toMatchObject({ data: { users: 3, revoked: 1 } });

    const missing = await kit.http().get(`/api/evidence/evidence/${run.run_id}/content`).set('Authorization', kit.auth.writer).expect(404);
    expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
    await kit.http().get('/api/evidence/evidence/not-a-uuid/content').set('Authorization', kit.auth.writer).expect(404);
    await kit.http().get(`/api/evidence/evidence/${file.body.evidence_id}/content`).expect(401);
    await kit
      .http()
      .get(`/api/evidence/evidence/${file.body.evidence_id}/content`)
      .set('Authorization', await bearer('claims:read', 'someone'))
      .expect(403);
  });

  it('documents both request forms in the OpenAPI document', async () => {
    const doc = await kit.http().get('/openapi.json').expect(200);
    const operation = doc.body.paths['/runs/{id}/evidence'].post;
    expect(Object.keys(operation.requestBody.content)).toEqual(['application/json', 'multipart/form-data']);
    expect(Object.keys(operation.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '403', '404', '409', '413', '415', '422']),
    );
  });
});
