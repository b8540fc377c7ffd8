import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { DecryptionError, decryptingStream, encryptingStream } from './encrypted-stream';
import { fileStorageFor } from './storage-config';
import { readAll, startS3TestServer, type S3TestServer } from './testing/s3-test-server';

const key = randomBytes(32);
const context = 'test.file:owner-1';
/** Feeds bytes in uneven pieces, as a socket would. */
const pieces = (bytes: Buffer, size = 777) =>
  Readable.from(Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size)));

async function encrypt(plaintext: Buffer, chunkBytes?: number): Promise<Buffer> {
  return readAll(pieces(plaintext).pipe(encryptingStream(key, context, chunkBytes)));
}
async function decrypt(sealed: Buffer, withKey = key, withContext = context): Promise<Buffer> {
  return readAll(pieces(sealed, 1000).pipe(decryptingStream(withKey, withContext)));
}
/** Recognisable text, so a plaintext leak in stored bytes would be found. */
const plaintextOf = (length: number) => Buffer.from('The claimant’s medical report. '.repeat(Math.ceil(length / 32))).subarray(0, length);

describe('the pvf1 encrypted file format (chunked AES-256-GCM)', () => {
  it.each([0, 1, 1023, 1024, 1025, 3 * 1024 + 5])(
    'round-trips %i bytes in 1 KiB chunks, and its bytes hold no plaintext',
    async (length) => {
      const plaintext = plaintextOf(length);
      const sealed = await encrypt(plaintext, 1024);
      expect(sealed.length).toBe(15 + length + 16 * Math.max(1, Math.ceil(length / 1024)));
      if (length >= 16) expect(sealed.includes(plaintext.subarray(0, 16))).toBe(false);
      expect((await decrypt(sealed)).equals(plaintext)).toBe(true);
    },
  );

  it('round-trips a 5 MiB file in the default 64 KiB chunks', async () => {
    const plaintext = randomBytes(5 * 1024 * 1024 + 3);
    expect((await decrypt(await encrypt(plaintext))).equals(plaintext)).toBe(true); // toEqual compares byte by byte: minutes
  });

  it('does not open with another key or for another owner', async () => {
    const sealed = await encrypt(plaintextOf(5000), 1024);
    await expect(decrypt(sealed, randomBytes(32))).rejects.toBeInstanceOf(DecryptionError);
    await expect(decrypt(sealed, key, 'test.file:owner-2')).rejects.toBeInstanceOf(DecryptionError);
  });

  it('refuses a file cut at a chunk boundary, reordered chunks, an altered byte, added bytes and plaintext', async () => {
    const sealed = await encrypt(plaintextOf(3 * 1024), 1024);
    const chunk = (i: number) => sealed.subarray(15 + i * 1040, 15 + (i + 1) * 1040);
    const header = sealed.subarray(0, 15);
    const flipped = Buffer.from(sealed);
    flipped[2000] ^= 1;
    for (const damaged of [
      Buffer.concat([header, chunk(0), chunk(1)]), // the last chunks dropped
      Buffer.concat([header, chunk(1), chunk(0), chunk(2), sealed.subarray(15 + 3 * 1040)]),
      flipped,
      Buffer.concat([sealed, Buffer.from('more')]),
      plaintextOf(4000),
    ])
      await expect(decrypt(damaged)).rejects.toBeInstanceOf(DecryptionError);
  });
});

describe.each(['local', 's3'] as const)('encrypted files in %s storage', (kind) => {
  let s3: S3TestServer | undefined;
  let dataDir: string;
  beforeAll(async () => {
    if (kind === 's3') s3 = await startS3TestServer();
    dataDir = mkdtempSync(path.join(tmpdir(), 'encrypted-files-'));
  });
  afterAll(async () => {
    await s3?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stores only ciphertext at the plaintext’s content address and reads back the original', async () => {
    const storage = fileStorageFor(s3 ? s3.config : { OBJECT_STORE_REGION: 'us-east-1' }, dataDir, { path: 'sealed' });
    const plaintext = plaintextOf(200 * 1024);
    const sha256 = createHash('sha256').update(plaintext).digest('hex');
    await storage.place(await storage.writeTemporary(pieces(plaintext).pipe(encryptingStream(key, context))), sha256);
    const root = s3 ? s3.directory : path.join(dataDir, 'sealed');
    const raw = readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => readFileSync(path.join(entry.parentPath, entry.name)));
    expect(raw.some((bytes) => bytes.length >= plaintext.length)).toBe(true);
    expect(raw.some((bytes) => bytes.includes(plaintext.subarray(0, 64)))).toBe(false);
    expect((await readAll((await storage.open(sha256)).pipe(decryptingStream(key, context)))).equals(plaintext)).toBe(true);
  });
});
