import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import type { FileStorage } from './file-storage';
import { s3ClientFrom, s3FileStorage } from './s3-file-storage';
import { fileStorageFor } from './storage-config';
import { startS3TestServer, type S3TestServer } from './testing/s3-test-server';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

let s3: S3TestServer;
let dataDir: string;
beforeAll(async () => {
  s3 = await startS3TestServer();
  dataDir = mkdtempSync(path.join(tmpdir(), 'files-test-'));
});
afterAll(async () => {
  await s3.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const kinds = ['local', 's3'] as const;

describe.each(kinds)('%s file storage', (kind) => {
  let storage: FileStorage;
  beforeAll(() => {
    storage = fileStorageFor(kind === 's3' ? s3.config : { OBJECT_STORE_REGION: 'us-east-1' }, dataDir, { path: `area-${kind}` });
  });
  const everything = () => storage.list();

  it('streams a file larger than one multipart part to a temporary object, places it at its content address and reads it back', async () => {
    const bytes = Buffer.alloc(11 * 1024 * 1024, 7); // over lib-storage's 5 MiB part size: a real multipart upload
    bytes.write('distinct', 0);
    const id = await storage.writeTemporary(Readable.from([bytes.subarray(0, 3_000_000), bytes.subarray(3_000_000)]));
    expect(await storage.has(sha256(bytes))).toBe(false);
    expect(sha256(await readAll(await storage.openTemporary(id)))).toBe(sha256(bytes)); // toEqual on 11 MiB would crawl

    expect(await storage.place(id, sha256(bytes))).toEqual({ created: true });
    expect(sha256(await readAll(await storage.open(sha256(bytes))))).toBe(sha256(bytes));
    expect(await everything()).toEqual([`${sha256(bytes).slice(0, 2)}/${sha256(bytes)}`]);

    const again = await storage.writeTemporary(Readable.from([bytes]));
    expect(await storage.place(again, sha256(bytes))).toEqual({ created: false });
    expect(await everything()).toHaveLength(1);
    await storage.remove(sha256(bytes));
    expect(await storage.has(sha256(bytes))).toBe(false);
    expect(await everything()).toEqual([]);
  });

  it('leaves nothing behind when the source fails mid-stream', async () => {
    const source = new PassThrough();
    const written = storage.writeTemporary(source);
    source.write(Buffer.alloc(64 * 1024, 1));
    setTimeout(() => source.destroy(new Error('client went away')), 50);
    await expect(written).rejects.toThrow('client went away');
    expect(await everything()).toEqual([]);
  });

  it('refuses to open what is not stored', async () => {
    await expect(storage.open('0'.repeat(64))).rejects.toThrow();
    await expect(storage.open('../../etc/passwd')).rejects.toThrow('not a SHA-256');
  });

  it('discards temporary objects on request', async () => {
    const id = await storage.writeTemporary(Readable.from([Buffer.from('short')]));
    await storage.discard(id);
    await storage.discard(id);
    expect(await everything()).toEqual([]);
  });
});

describe('abandoned temporary objects', () => {
  it("S3: a replica starting leaves another replica's young temporary object alone, and removes one older than the cut-off", async () => {
    const config = { ...s3.config, OBJECT_STORE_URL: `${s3.config.OBJECT_STORE_URL}/abandoned` };
    const client = s3ClientFrom({
      region: 'us-east-1',
      endpoint: config.OBJECT_STORE_ENDPOINT,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    });
    const storage = fileStorageFor(config, dataDir, { path: 'uploads' });
    const id = await storage.writeTemporary(Readable.from([Buffer.from('in flight on another replica')]));
    expect(await storage.removeAbandoned()).toBe(0);
    expect(await storage.list()).toEqual([`.incoming/${id}`]);
    const impatient = s3FileStorage({ client, bucket: 'platform-files', prefix: 'abandoned/uploads', abandonedAfterMs: -1000 });
    expect(await impatient.removeAbandoned()).toBe(1);
    expect(await storage.list()).toEqual([]);
  });

  it('local: every temporary file is abandoned at start (DATA_DIR belongs to one instance), stored files stay', async () => {
    const storage = fileStorageFor({ OBJECT_STORE_REGION: 'us-east-1' }, dataDir, {
      path: 'abandoned-local',
      tempPath: 'abandoned-local-tmp',
    });
    const kept = Buffer.from('kept');
    await storage.place(await storage.writeTemporary(Readable.from([kept])), sha256(kept));
    await storage.writeTemporary(Readable.from([Buffer.from('left by a killed process')]));
    expect(await storage.removeAbandoned()).toBe(1);
    expect(await storage.list()).toEqual([`${sha256(kept).slice(0, 2)}/${sha256(kept)}`]);
  });
});

describe('S3 file storage with OBJECT_STORE_SSE', () => {
  it('asks for server-side encryption on every object it creates: single put, multipart upload and the copy to the content address', async () => {
    // A pass-through proxy in front of s3rver (which ignores the header) records what the client really sends.
    const seen: { method: string; url: string; sse?: string; copy: boolean }[] = [];
    const target = new URL(s3.config.OBJECT_STORE_ENDPOINT);
    const proxy = http.createServer((req, res) => {
      seen.push({
        method: req.method!,
        url: req.url!,
        sse: req.headers['x-amz-server-side-encryption'] as string | undefined,
        copy: 'x-amz-copy-source' in req.headers,
      });
      const upstream = http.request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const endpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const storage = fileStorageFor({ ...s3.config, OBJECT_STORE_ENDPOINT: endpoint, OBJECT_STORE_SSE: 'AES256' }, dataDir, {
        path: 'encrypted',
      });
      for (const bytes of [Buffer.from('small'), Buffer.alloc(6 * 1024 * 1024, 3)]) {
        await storage.place(await storage.writeTemporary(Readable.from([bytes])), sha256(bytes));
      }
      const creating = seen.filter(
        (request) =>
          (request.method === 'PUT' && !/[?&]uploadId=/.test(request.url)) ||
          (request.method === 'POST' && /[?&]uploads/.test(request.url)),
      );
      expect(creating.filter((request) => request.copy)).toHaveLength(2);
      expect(creating.filter((request) => request.method === 'POST')).toHaveLength(1);
      expect(creating.length).toBeGreaterThanOrEqual(4);
      expect(creating.map((request) => request.sse)).toEqual(creating.map(() => 'AES256'));
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
