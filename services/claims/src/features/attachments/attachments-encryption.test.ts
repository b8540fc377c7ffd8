import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import request from 'supertest';
import { ENCRYPTED_MAGIC } from '@platform/files';
import { readAll, startS3TestServer, STORAGE_KINDS, type S3TestServer } from '@platform/files/src/testing/s3-test-server';
import { bearer, binaryBody } from '@platform/testing';
import { fileClaim, retainNothing, startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { as } from '../../testing/workflow-fixtures';
import { ClaimFileUnreadable } from './claim-files';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A PDF (by its bytes) carrying `marker` many times over, past several encrypted chunks (64 KiB each). */
const pdfWith = (marker: string) =>
  Buffer.concat([
    Buffer.from(`%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n`),
    Buffer.from(`% ${marker}\n`.repeat(6000)),
    Buffer.from('trailer\n<< /Root 1 0 R >>\n%%EOF\n'),
  ]);

/** A PNG (by its bytes) with `marker` in a tEXt chunk. */
const pngWith = (marker: string) =>
  Buffer.concat([
    Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
    randomBytes(17),
    Buffer.from([0, 0, 0, marker.length]),
    Buffer.from(`tEXt${marker}`),
    Buffer.alloc(4),
    Buffer.from('0000000049454e44ae426082', 'hex'),
  ]);

/** Every file under a directory, recursively, with its bytes (storage as the disk holds it). */
async function bytesUnder(dir: string): Promise<{ file: string; bytes: Buffer }[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  return Promise.all(files.map(async (file) => ({ file, bytes: await readFile(file) })));
}

describe.each(STORAGE_KINDS)('attachment files encrypted at rest with the claimant’s key (%s storage)', (storageKind) => {
  let t: ClaimsTestService;
  let s3: S3TestServer | undefined;

  beforeAll(async () => {
    if (storageKind === 's3') s3 = await startS3TestServer();
    t = await startClaimsTestService({ ...(s3?.config ?? {}) } as Record<string, string>);
  });
  afterAll(async () => {
    await t?.stop();
    await s3?.close();
  });

  /** Every byte the service stored: all of DATA_DIR and, with S3, every object of the bucket as s3rver keeps it. */
  const everyStoredFile = async () => [...(await bytesUnder(t.dataDir)), ...(s3 ? await bytesUnder(s3.directory) : [])];

  async function uploadTo(claim: Awaited<ReturnType<typeof fileClaim>>, ...files: [Buffer, string][]) {
    let call = request(t.url)
      .post(`/api/claims/public/claims/${claim.claim_id}/attachments`)
      .set('Authorization', `Bearer ${claim.access_token}`);
    for (const [bytes, name] of files) call = call.attach('file', bytes, name);
    const response = await call.expect(201);
    return response.body.attachments as { attachment_id: string; sha256: string }[];
  }

  const download = async (claimId: string, attachmentId: string) =>
    request(t.url)
      .get(`/api/claims/claims/${claimId}/attachments/${attachmentId}/content`)
      .set('Authorization', await as.reader())
      .buffer(true)
      .parse(binaryBody);

  const storedRow = async (attachmentId: string) =>
    (await t.db('attachments').where({ id: attachmentId }).first('sha256', 'stored_sha256')) as {
      sha256: string;
      stored_sha256: string | null;
    };

  it('leaves no byte of an uploaded file’s plaintext in storage: every stored byte is searched for its marker', async () => {
    const marker = `plaintext-marker-${randomBytes(8).toString('hex')}`;
    const [document, photo] = [pdfWith(marker), pngWith(marker)];
    const claim = await fileClaim(t.url);
    const [first, second] = await uploadTo(claim, [document, 'a.pdf'], [photo, 'b.png']);

    const stored = await everyStoredFile();
    expect(stored.length).toBeGreaterThan(0);
    const holding = stored.filter(({ bytes }) => bytes.includes(marker) || bytes.includes(document.subarray(0, 200)));
    expect(holding.map(({ file }) => file)).toEqual([]);

    // each is stored sealed (pvf1) under the SHA-256 of its stored bytes, none at the plaintext's address
    for (const [attachment, plaintext] of [
      [first, document],
      [second, photo],
    ] as const) {
      const row = await storedRow(attachment.attachment_id);
      expect(row.sha256).toBe(sha256(plaintext));
      const sealed = await readAll(await t.attachments.open(row.stored_sha256!));
      expect(sealed.subarray(0, 4).equals(ENCRYPTED_MAGIC)).toBe(true);
      expect(sha256(sealed)).toBe(row.stored_sha256);
      expect(await t.attachments.has(row.sha256)).toBe(false);
    }
    // no temporary (incoming) copy is left: every object is the stored file of a row
    const rows = (await t.db('attachments').whereNotNull('stored_sha256').pluck('stored_sha256')) as string[];
    expect((await t.attachments.list()).filter((name) => !rows.includes(path.basename(name)))).toEqual([]);
  });

  it('serves the exact original bytes: the staff download and the adjuster kit’s download_url (sha256)', async () => {
    const document = pdfWith(`kit-${randomBytes(6).toString('hex')}`);
    const claim = await fileClaim(t.url);
    const [attachment] = await uploadTo(claim, [document, 'estimate.pdf']);

    const direct = await download(claim.claim_id, attachment.attachment_id);
    expect(direct.status).toBe(200);
    expect(sha256(direct.body as Buffer)).toBe(sha256(document));
    expect(direct.headers['content-length']).toBe(String(document.length));

    const kit = await request(t.url)
      .post(`/api/claims/claims/${claim.claim_id}/generate-adjuster-kit`)
      .set('Authorization', await as.writer())
      .expect(201);
    const listed = kit.body.attachments.find((entry: { attachment_id: string }) => entry.attachment_id === attachment.attachment_id);
    expect(listed).toMatchObject({ sha256: sha256(document), size_bytes: document.length });
    const fromKit = await request(t.url)
      .get(listed.download_url)
      .set('Authorization', await as.reader())
      .buffer(true)
      .parse(binaryBody);
    expect(fromKit.status).toBe(200);
    expect((fromKit.body as Buffer).equals(document)).toBe(true);
  });

  it('still serves a file stored in plain text before encryption (no stored_sha256)', async () => {
    const document = pdfWith(`legacy-${randomBytes(6).toString('hex')}`);
    const claim = await fileClaim(t.url);
    const [attachment] = await uploadTo(claim, [document, 'old.pdf']);
    const row = await storedRow(attachment.attachment_id);
    // as a file filed before: plain at its content address, the row without a stored address
    await t.attachments.place(await t.attachments.writeTemporary(Readable.from([document])), row.sha256);
    await t.db('attachments').where({ id: attachment.attachment_id }).update({ stored_sha256: null });
    await t.attachments.remove(row.stored_sha256!);

    const response = await download(claim.claim_id, attachment.attachment_id);
    expect(response.status).toBe(200);
    expect((response.body as Buffer).equals(document)).toBe(true);
  });

  it('after erasure a ciphertext still in storage (its removal to be retried) opens for nobody', async () => {
    const marker = `erased-marker-${randomBytes(8).toString('hex')}`;
    const document = pdfWith(marker);
    // a claimant of their own (the other claims here share one), with no other claim open
    const claim = await fileClaim(t.url, {
      claimant: { name: 'Erin Erased', email: `erin.${randomBytes(4).toString('hex')}@example.org` },
    });
    const [attachment] = await uploadTo(claim, [document, 'erased.pdf']);
    const row = await storedRow(attachment.attachment_id);
    const ciphertext = await readAll(await t.attachments.open(row.stored_sha256!));
    expect(((await download(claim.claim_id, attachment.attachment_id)).body as Buffer).equals(document)).toBe(true);

    const officer = await bearer('privacy:manage', 'privacy-pat');
    await request(t.url)
      .post(`/api/claims/public/claims/${claim.claim_id}/withdraw`)
      .set('Authorization', `Bearer ${claim.access_token}`)
      .expect(200);
    await retainNothing(t.url, officer);
    const { claimant_id: claimantId } = await t.db('claims').where({ id: claim.claim_id }).first('claimant_id');
    await request(t.url)
      .post(`/api/claims/claimants/${claimantId}/erasure`)
      .set('Authorization', officer)
      .send({ reason: 'Data subject request DSR-9', legal_basis: 'consent_withdrawn' })
      .expect(201);

    // the removal of the file failed and waits for its retry: the ciphertext is back where it was stored
    await t.attachments.place(await t.attachments.writeTemporary(Readable.from([ciphertext])), row.stored_sha256!);
    expect(await t.db('claimants').where({ id: claimantId }).first('wrapped_key')).toEqual({ wrapped_key: null });
    await expect(t.files.open(claim.claim_id, attachment.attachment_id)).rejects.toBeInstanceOf(ClaimFileUnreadable);
    expect((await download(claim.claim_id, attachment.attachment_id)).status).toBe(404);
    const stored = await everyStoredFile();
    expect(stored.some(({ bytes }) => bytes.equals(ciphertext))).toBe(true);
    expect(stored.filter(({ bytes }) => bytes.includes(marker)).map(({ file }) => file)).toEqual([]);
  });
});
