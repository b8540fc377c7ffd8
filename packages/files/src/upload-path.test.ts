import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Knex, Migration } from '@platform/db';
import { openTestDatabase } from '@platform/testing';
import { filePlacements } from './file-placements';
import type { FileStorage } from './file-storage';
import { localFileStorage } from './local-file-storage';
import type { UploadedFile } from './upload-pipeline';
import { uploadPath, type ScannedFile } from './upload-path';
import { openSealed, sealTemporary } from './sealed-files';
import { readAll } from './testing/s3-test-server';

const migrations: Migration[] = [
  {
    name: '0001_file_placements',
    sql: `CREATE TABLE file_placements (id uuid PRIMARY KEY, sha256 text NOT NULL, announced_at timestamptz NOT NULL DEFAULT now());
          CREATE TABLE items (id serial PRIMARY KEY, sha256 text NOT NULL);`,
  },
];

describe('the upload path (accept → scan → announce → transaction → discard/recover)', () => {
  let db: Knex;
  let cleanup: () => Promise<void>;
  let dir: string;
  let storage: FileStorage;
  const warnings: { fields: Record<string, unknown>; message: string }[] = [];
  const logger = { warn: (fields: Record<string, unknown>, message: string) => warnings.push({ fields, message }) };

  const pathOver = (files: FileStorage) =>
    uploadPath({
      storage: files,
      placements: filePlacements(db, {
        storage: files,
        lockNamespace: 'test.upload',
        isReferenced: async (trx, sha256) => (await trx('items').where({ sha256 }).first('id')) !== undefined,
      }),
      scanner: undefined,
      logger: logger as never,
    });

  async function received(): Promise<UploadedFile> {
    const bytes = randomBytes(512);
    return {
      temporaryId: await storage.writeTemporary(Readable.from([bytes])),
      sha256: createHash('sha256').update(bytes).digest('hex'),
      sizeBytes: bytes.length,
      head: bytes.subarray(0, 16),
      utf8Text: false,
      declaredType: 'application/octet-stream',
    };
  }

  beforeAll(async () => {
    ({ db, cleanup } = await openTestDatabase('upload_path', migrations));
    dir = mkdtempSync(path.join(tmpdir(), 'upload-path-'));
    storage = localFileStorage({ root: dir });
  }, 60000);
  afterAll(async () => {
    await cleanup?.();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => warnings.splice(0));

  it('files what the transaction writes: placed at the content address, scanned not_scanned, no temporary file left', async () => {
    const file = await received();
    const result = await pathOver(storage)([file], {
      accept: (files) => files,
      write: (scanned, place) =>
        db.transaction(async (trx) => {
          await place(trx);
          await trx('items').insert({ sha256: scanned[0].sha256 });
          return scanned[0].scan.status;
        }),
    });
    expect(result).toBe('not_scanned');
    expect(await storage.list()).toContain(path.join(file.sha256.slice(0, 2), file.sha256));
    expect((await storage.list()).filter((name) => name.includes('.incoming'))).toEqual([]);
  });

  it('with a seal step: only the sealed file is placed, at its stored address, and it opens to the bytes received', async () => {
    const file = await received();
    const plaintext = await readAll(await storage.openTemporary(file.temporaryId));
    const key = randomBytes(32);
    const seal = async (scanned: ScannedFile) => {
      const sealed = await sealTemporary(storage, scanned.temporaryId, key, 'test.item:1');
      return { ...scanned, temporaryId: sealed.temporaryId, storedAs: sealed.storedSha256 };
    };
    const stored = await pathOver(storage)([file], {
      accept: (files) => files,
      seal,
      write: (sealed, place) =>
        db.transaction(async (trx) => {
          await place(trx);
          await trx('items').insert({ sha256: sealed[0].storedAs });
          return sealed[0].storedAs!;
        }),
    });
    expect(await storage.list()).toEqual(expect.arrayContaining([path.join(stored.slice(0, 2), stored)]));
    expect(await storage.has(file.sha256)).toBe(false);
    expect((await storage.list()).filter((name) => name.includes('.incoming'))).toEqual([]);
    const ciphertext = await readAll(await storage.open(stored));
    expect(createHash('sha256').update(ciphertext).digest('hex')).toBe(stored);
    expect(ciphertext.includes(plaintext.subarray(0, 64))).toBe(false);
    expect((await readAll(openSealed(await storage.open(stored), key, 'test.item:1'))).equals(plaintext)).toBe(true);
  });

  it('a sealed upload whose transaction fails: neither the plaintext nor the sealed temporary file is left', async () => {
    const file = await received();
    const before = await storage.list();
    let sealedId = '';
    await expect(
      pathOver(storage)([file], {
        accept: (files) => files,
        seal: async (scanned) => {
          const sealed = await sealTemporary(storage, scanned.temporaryId, randomBytes(32), 'test.item:2');
          sealedId = sealed.temporaryId;
          return { ...scanned, temporaryId: sealed.temporaryId, storedAs: sealed.storedSha256 };
        },
        write: () => Promise.reject(new Error('the database is down')),
      }),
    ).rejects.toThrow('the database is down');
    await expect(storage.openTemporary(sealedId)).rejects.toThrow();
    await expect(storage.openTemporary(file.temporaryId)).rejects.toThrow();
    expect(await storage.list()).toEqual(before.filter((name) => !name.includes(file.temporaryId)));
  });

  it('a refused upload (accept throws) leaves no temporary file and scans nothing', async () => {
    const files = [await received(), await received()];
    const refusal = new Error('415');
    await expect(
      pathOver(storage)(files, {
        accept: () => {
          throw refusal;
        },
        write: () => Promise.reject(new Error('never written')),
      }),
    ).rejects.toBe(refusal);
    for (const file of files) await expect(storage.openTemporary(file.temporaryId)).rejects.toThrow();
  });

  it('a transaction that fails after placing: the placed file is removed again, the error is the caller’s', async () => {
    const file = await received();
    await expect(
      pathOver(storage)([file], {
        accept: (files) => files,
        write: (_scanned, place) =>
          db.transaction(async (trx) => {
            await place(trx);
            throw new Error('the insert failed');
          }),
      }),
    ).rejects.toThrow('the insert failed');
    expect(await storage.has(file.sha256)).toBe(false);
    expect(warnings).toEqual([]);
  });

  it('logs a cleanup that fails (with the request id) and still answers with the original error', async () => {
    const file = await received();
    const failingDiscard: FileStorage = { ...storage, discard: () => Promise.reject(new Error('storage down')) };
    await expect(
      pathOver(failingDiscard)(
        [file],
        { accept: (files) => files, write: () => Promise.reject(new Error('the database is down')) },
        'request-7',
      ),
    ).rejects.toThrow('the database is down');
    expect(warnings).toEqual([
      expect.objectContaining({
        fields: expect.objectContaining({ request_id: 'request-7' }),
        message: expect.stringContaining('discard'),
      }),
    ]);
    await storage.discard(file.temporaryId);
  });
});
