import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { ObjectStoreConfig } from '../storage-config';

export interface S3TestServer {
  /** OBJECT_STORE_* settings pointing at this server's bucket. */
  config: ObjectStoreConfig & { OBJECT_STORE_URL: string; OBJECT_STORE_ENDPOINT: string };
  /** The objects the server holds, read straight from its directory (bypassing S3). */
  directory: string;
  close(): Promise<void>;
}

/** An S3-compatible server (s3rver) on a loopback port with one empty bucket, for tests of the S3 storage. */
export async function startS3TestServer(bucket = 'platform-files'): Promise<S3TestServer> {
  const directory = mkdtempSync(path.join(tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  return {
    config: {
      OBJECT_STORE_URL: `s3://${bucket}`,
      OBJECT_STORE_ENDPOINT: `http://127.0.0.1:${port}`,
      OBJECT_STORE_REGION: 'us-east-1',
      // s3rver's fixed development key pair
      OBJECT_STORE_ACCESS_KEY_ID: 'S3RVER',
      OBJECT_STORE_SECRET_ACCESS_KEY: 'S3RVER',
    },
    directory,
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The storages a file test suite runs against, once each. */
export const STORAGE_KINDS = ['local', 's3'] as const;

/**
 * For a test file that runs its suite once per storage kind: starts one S3 test server for the file (and
 * stops it after), and gives a service's settings for a kind: none for local, a fresh prefix of the
 * server's bucket for s3.
 */
export function storageSettingsPerKind(): (kind: string) => Record<string, string> {
  let s3: S3TestServer | undefined;
  beforeAll(async () => {
    s3 = await startS3TestServer();
  });
  afterAll(async () => {
    await s3?.close();
  });
  return (kind) => (kind === 's3' ? { ...s3!.config, OBJECT_STORE_URL: `${s3!.config.OBJECT_STORE_URL}/${Date.now()}` } : {});
}

/** Every byte of a stream (a stored file read back in a test). */
export async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}
