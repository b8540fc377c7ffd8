import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import request from 'supertest';
import { endlessUpload } from '@platform/testing';
import { countRows, fileClaim, startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { readAll, STORAGE_KINDS, storageSettingsPerKind } from '@platform/files/src/testing/s3-test-server';

const MAX_BYTES = 64 * 1024;

const pdf = (marker = randomBytes(8).toString('hex')) =>
  Buffer.from(`%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n% ${marker}\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n`);
const jpeg = (size = 2048) =>
  Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]), randomBytes(size)]);
const padded = (head: Buffer) => Buffer.concat([head, randomBytes(64)]);
const isoMedia = (brand: string) =>
  padded(Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from(`ftyp${brand}`), Buffer.alloc(4), Buffer.from(`${brand}mp41`)]));
const png = () =>
  Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
    Buffer.from('IHDR'),
    randomBytes(13),
    Buffer.alloc(4),
    Buffer.alloc(4),
    Buffer.from('IEND'),
    Buffer.alloc(4),
  ]);
const webp = () => padded(Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 ')]));
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const storageSettings = storageSettingsPerKind();

describe.each(STORAGE_KINDS)('POST /api/claims/public/claims/{id}/attachments (%s storage)', (storageKind) => {
  let t: ClaimsTestService;
  let claim: Awaited<ReturnType<typeof fileClaim>>;
  let other: Awaited<ReturnType<typeof fileClaim>>;

  beforeAll(async () => {
    t = await startClaimsTestService({
      ATTACHMENT_MAX_BYTES: String(MAX_BYTES),
      ...storageSettings(storageKind),
    } as Record<string, string>);
    claim = await fileClaim(t.url);
    other = await fileClaim(t.url);
    // The intake events are published asynchronously; wait for them so they are not counted against a rejection.
    await t.events.waitFor((events) => events.filter((e) => e.routingKey === 'claim.created').length === 2);
  });
  afterAll(async () => {
    await t?.stop();
  });

  const upload = (claimId: string, token: string | undefined) => {
    const call = request(t.url).post(`/api/claims/public/claims/${claimId}/attachments`);
    return token === undefined ? call : call.set('Authorization', `Bearer ${token}`);
  };

  const attachmentEvents = (claimId: string) =>
    t.events.received.filter((e) => e.routingKey === 'claim.attachment_added' && e.body.data.claim_id === claimId);

  /** A rejected upload: the status, problem+json, and no row, file or event left behind. */
  async function expectRejected(send: () => PromiseLike<request.Response>, status: number) {
    const rows = await countRows(t.db);
    const files = await t.attachments.list();
    const events = t.events.received.length;
    const response = await send();
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(await countRows(t.db)).toEqual(rows);
    expect(await t.attachments.list()).toEqual(files);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(t.events.received.length).toBe(events);
    return response.body;
  }

  describe('rejects', () => {
    it('a request without a token with 401', async () => {
      await expectRejected(() => upload(claim.claim_id, undefined).attach('file', pdf(), 'a.pdf'), 401);
    });

    it("another claim's token, a wrong token, an unknown id and a malformed id all with the same 404", async () => {
      const bodies = [
        await expectRejected(() => upload(claim.claim_id, other.access_token).attach('file', pdf(), 'a.pdf'), 404),
        await expectRejected(() => upload(claim.claim_id, 'not-the-token').attach('file', pdf(), 'a.pdf'), 404),
        await expectRejected(() => upload('5f0c8a4e-0000-4000-8000-000000000000', claim.access_token).attach('file', pdf(), 'a.pdf'), 404),
        await expectRejected(() => upload('not-a-uuid', claim.access_token).attach('file', pdf(), 'a.pdf'), 404),
      ];
      for (const body of bodies)
        expect({ title: body.title, detail: body.detail }).toEqual({ title: bodies[0].title, detail: bodies[0].detail });
    });

    it('a body that is not multipart/form-data with 415', async () => {
      await expectRejected(() => upload(claim.claim_id, claim.access_token).send({ file: 'x' }), 415);
    });

    it('bytes that lie about their type (text named photo.jpg, declared image/jpeg) with 415', async () => {
      await expectRejected(
        () =>
          upload(claim.claim_id, claim.access_token).attach('file', Buffer.from('MZ this is not a photo at all'), {
            filename: 'photo.jpg',
            contentType: 'image/jpeg',
          }),
        415,
      );
    });

    it('a file over ATTACHMENT_MAX_BYTES with 413, keeping the good file of the same request out too', async () => {
      const oversize = Buffer.concat([pdf(), randomBytes(MAX_BYTES)]);
      await expectRejected(
        () => upload(claim.claim_id, claim.access_token).attach('file', jpeg(), 'ok.jpg').attach('file', oversize, 'big.pdf'),
        413,
      );
    });

    it('a file over the cap with 413 as soon as the cap is passed, closing the connection instead of reading the rest', async () => {
      const boundary = 'over-the-cap';
      const partHead = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.pdf"\r\nContent-Type: application/pdf\r\n\r\n`;
      const totalBytes = 300 * 1024 * 1024;
      const outcome = await endlessUpload(
        `${t.url}/api/claims/public/claims/${claim.claim_id}/attachments`,
        { Authorization: `Bearer ${claim.access_token}`, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
        Buffer.concat([Buffer.from(partHead), pdf()]),
        totalBytes,
      );
      expect(outcome.status).toBe(413);
      expect(JSON.parse(outcome.body)).toMatchObject({ status: 413 });
      expect(outcome.sentBytes).toBeLessThan(totalBytes / 4);
      expect(await t.attachments.list()).toEqual([]);
    });

    it('a good file together with a bad one with 415, storing neither', async () => {
      await expectRejected(
        () =>
          upload(claim.claim_id, claim.access_token).attach('file', pdf(), 'good.pdf').attach('file', Buffer.from('plain text'), 'bad.pdf'),
        415,
      );
    });

    it('more than 10 files with 400', async () => {
      await expectRejected(() => {
        let call = upload(claim.claim_id, claim.access_token);
        for (let i = 0; i < 11; i += 1) call = call.attach('file', pdf(), `f${i}.pdf`);
        return call;
      }, 400);
    });

    it('no file part, an unknown field, a file in another part, or an unknown document_type with 400', async () => {
      await expectRejected(() => upload(claim.claim_id, claim.access_token).field('description', 'nothing attached'), 400);
      await expectRejected(() => upload(claim.claim_id, claim.access_token).attach('file', pdf(), 'a.pdf').field('owner', 'x'), 400);
      await expectRejected(() => upload(claim.claim_id, claim.access_token).attach('upload', pdf(), 'a.pdf'), 400);
      await expectRejected(
        () => upload(claim.claim_id, claim.access_token).attach('file', pdf(), 'a.pdf').field('description', 'nul\u0000here'),
        400,
      );
      const body = await expectRejected(
        () => upload(claim.claim_id, claim.access_token).attach('file', pdf(), 'a.pdf').field('document_type', 'tax_return'),
        400,
      );
      expect(body.errors).toContainEqual({ pointer: '/document_type', message: 'is not a document type of this claim' });
    });

    it('a malformed multipart body with 400', async () => {
      await expectRejected(
        () =>
          upload(claim.claim_id, claim.access_token)
            .set('Content-Type', 'multipart/form-data; boundary=xyz')
            .send('--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4 trunc'),
        400,
      );
    });

    it('an upload to a closed claim with 409', async () => {
      const closed = await fileClaim(t.url);
      // its claim.created is published asynchronously: wait for it, so it is not counted against the rejection
      await t.events.waitFor((events) => events.some((e) => e.routingKey === 'claim.created' && e.body.data.claim_id === closed.claim_id));
      await t.db('claims').where({ id: closed.claim_id }).update({ stage: 'closed' });
      await expectRejected(() => upload(closed.claim_id, closed.access_token).attach('file', pdf(), 'a.pdf'), 409);
    });

    it('an upload aborted mid-stream, leaving no file, row or event', async () => {
      const rows = await countRows(t.db);
      const events = t.events.received.length;
      const files = await t.attachments.list();
      await new Promise<void>((resolve) => {
        const req = http.request(`${t.url}/api/claims/public/claims/${claim.claim_id}/attachments`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${claim.access_token}`,
            'Content-Type': 'multipart/form-data; boundary=b0undary',
            'Content-Length': '100000',
          },
        });
        req.on('error', () => resolve());
        req.write(`--b0undary\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n`);
        req.write(Buffer.concat([pdf(), randomBytes(8000)]));
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 200);
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await t.attachments.list()).toEqual(files);
      expect(await countRows(t.db)).toEqual(rows);
      expect(t.events.received.length).toBe(events);
    });
  });

  describe('accepts', () => {
    it('files decided by their bytes, stored (encrypted) at their content address, with the checklist item marked received', async () => {
      const [document, photo] = [pdf(), jpeg()];
      const response = await upload(claim.claim_id, claim.access_token)
        .attach('file', document, { filename: 'estimate.bin', contentType: 'application/octet-stream' })
        .attach('file', photo, '../../etc/passwd')
        .field('document_type', 'photos_of_damage')
        .field('description', 'front bumper')
        .expect(201);
      const [first, second] = response.body.attachments;
      expect(first).toMatchObject({
        content_type: 'application/pdf',
        size_bytes: document.length,
        sha256: sha256(document),
        document_type: 'photos_of_damage',
        filename: 'estimate.bin',
        duplicate: false,
      });
      expect(second).toMatchObject({
        content_type: 'image/jpeg',
        size_bytes: photo.length,
        sha256: sha256(photo),
        filename: 'passwd',
        duplicate: false,
      });
      expect(Object.keys(first).sort()).toEqual([
        'attachment_id',
        'content_type',
        'document_type',
        'duplicate',
        'filename',
        'received_at',
        'scan_notice',
        'scan_status',
        'sha256',
        'size_bytes',
      ]);
      expect(await readAll(await t.files.open(claim.claim_id, first.attachment_id))).toEqual(document);
      expect(await readAll(await t.files.open(claim.claim_id, second.attachment_id))).toEqual(photo);
      expect((await t.attachments.list()).some((file) => file.includes('passwd') || file.includes('.incoming'))).toBe(false);

      const status = await request(t.url)
        .get(`/api/claims/public/claims/${claim.claim_id}/status`)
        .set('Authorization', `Bearer ${claim.access_token}`)
        .expect(200);
      expect(status.body.required_documents).toContainEqual({ type: 'photos_of_damage', received: true });
      expect(status.body.required_documents).toContainEqual({ type: 'repair_estimate', received: false });

      await t.events.waitFor(() => attachmentEvents(claim.claim_id).length >= 2);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const events = attachmentEvents(claim.claim_id);
      expect(events.map((e) => e.body.data.attachment_id).sort()).toEqual([first.attachment_id, second.attachment_id].sort());
      for (const event of events) {
        expect(JSON.stringify(event.body)).not.toMatch(/passwd|estimate\.bin|front bumper/);
        expect(event.body.data).toMatchObject({ claim_id: claim.claim_id, document_type: 'photos_of_damage' });
      }
    });

    it('the same bytes again as the stored attachment with duplicate: true, and no new row or event', async () => {
      const bytes = pdf();
      const first = await upload(claim.claim_id, claim.access_token).attach('file', bytes, 'one.pdf').expect(201);
      await t.events.waitFor(() =>
        attachmentEvents(claim.claim_id).some((e) => e.body.data.attachment_id === first.body.attachments[0].attachment_id),
      );
      const rows = await countRows(t.db);
      const files = await t.attachments.list();
      const events = t.events.received.length;
      const again = await upload(claim.claim_id, claim.access_token).attach('file', bytes, 'renamed.pdf').expect(201);
      expect(again.body.attachments).toEqual([{ ...first.body.attachments[0], duplicate: true }]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await countRows(t.db)).toEqual(rows);
      expect(await t.attachments.list()).toEqual(files); // the copy sealed for it is not kept
      expect(t.events.received.length).toBe(events);
    });

    it('the same bytes on another claim as a new attachment of that claim, encrypted for each claimant apart', async () => {
      const bytes = pdf();
      const mine = await upload(claim.claim_id, claim.access_token).attach('file', bytes, 'a.pdf').expect(201);
      const theirs = await upload(other.claim_id, other.access_token).attach('file', bytes, 'a.pdf').expect(201);
      expect(theirs.body.attachments[0].duplicate).toBe(false);
      expect(theirs.body.attachments[0].attachment_id).not.toBe(mine.body.attachments[0].attachment_id);
      const stored = (await t
        .db('attachments')
        .whereIn('id', [mine.body.attachments[0].attachment_id, theirs.body.attachments[0].attachment_id])
        .pluck('stored_sha256')) as string[];
      expect(new Set(stored).size).toBe(2);
      const names = (await t.attachments.list()).map((file) => path.basename(file));
      expect(names.filter((name) => stored.includes(name))).toHaveLength(2);
      expect(names).not.toContain(sha256(bytes));
    });

    it('concurrent uploads sharing files in opposite orders: all 201, one row per content', async () => {
      const [a, b] = [pdf(), jpeg()];
      const responses = await Promise.all(
        Array.from({ length: 6 }, (_, i) => {
          const [first, second] = i % 2 === 0 ? [a, b] : [b, a];
          return upload(other.claim_id, other.access_token).attach('file', first, 'x.bin').attach('file', second, 'y.bin');
        }),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(6).fill(201));
      const rows = await t
        .db('attachments')
        .where({ claim_id: other.claim_id })
        .whereIn('sha256', [sha256(a), sha256(b)]);
      expect(rows).toHaveLength(2);
      const created = responses.flatMap((r) => r.body.attachments).filter((attachment: { duplicate: boolean }) => !attachment.duplicate);
      expect(created).toHaveLength(2);
    });

    it('PNG, WebP, MP4 and HEIC by their bytes, whatever their names say', async () => {
      const response = await upload(claim.claim_id, claim.access_token)
        .attach('file', png(), 'a.txt')
        .attach('file', webp(), 'b.doc')
        .attach('file', isoMedia('isom'), 'c')
        .attach('file', isoMedia('heic'), 'd.jpg')
        .expect(201);
      expect(response.body.attachments.map((attachment: { content_type: string }) => attachment.content_type)).toEqual([
        'image/png',
        'image/webp',
        'video/mp4',
        'image/heic',
      ]);
    });

    it('keeps a UTF-8 file name for display', async () => {
      const response = await upload(claim.claim_id, claim.access_token).attach('file', pdf(), 'Schadensmeldung für Ärztin.pdf').expect(201);
      expect(response.body.attachments[0].filename).toBe('Schadensmeldung für Ärztin.pdf');
    });

    it('a file of exactly ATTACHMENT_MAX_BYTES', async () => {
      const head = pdf();
      const exact = Buffer.concat([head, randomBytes(MAX_BYTES - head.length)]);
      const response = await upload(claim.claim_id, claim.access_token).attach('file', exact, 'exact.pdf').expect(201);
      expect(response.body.attachments[0].size_bytes).toBe(MAX_BYTES);
    });
  });
});
