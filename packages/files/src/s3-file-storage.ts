import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NotFound,
  S3Client,
  type ServerSideEncryption,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { assertSha256, isTemporaryId, type FileStorage } from './file-storage';

export interface S3StorageOptions {
  client: S3Client;
  bucket: string;
  /** Key prefix of this service's files, e.g. `claims/attachments`. */
  prefix: string;
  /** `AES256` or `aws:kms`, sent on every write when set. */
  serverSideEncryption?: ServerSideEncryption;
  kmsKeyId?: string;
  /** Temporary objects older than this are abandoned (another replica may still be writing a younger one). */
  abandonedAfterMs?: number;
}

const TEMP_SEGMENT = '.incoming';

function isMissing(error: unknown): boolean {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return error instanceof NotFound || name === 'NoSuchKey' || name === 'NotFound' || $metadata?.httpStatusCode === 404;
}

/**
 * Files in S3-compatible object storage. Uploads stream as a multipart upload to
 * `<prefix>/.incoming/<uuid>` (aborted, so nothing remains, when the stream fails); placing copies the
 * complete object to its content address `<prefix>/<sha[0..2]>/<sha>` and deletes the temporary one.
 * Any replica can then read it.
 */
export function s3FileStorage(options: S3StorageOptions): FileStorage {
  const { client, bucket } = options;
  const prefix = options.prefix.replace(/\/+$/, '');
  const abandonedAfterMs = options.abandonedAfterMs ?? 60 * 60 * 1000;
  const encryption = options.serverSideEncryption
    ? { ServerSideEncryption: options.serverSideEncryption, ...(options.kmsKeyId ? { SSEKMSKeyId: options.kmsKeyId } : {}) }
    : {};
  const temporaryKey = (id: string) => {
    if (!isTemporaryId(id)) throw new Error(`not a temporary file id: ${id.slice(0, 80)}`);
    return `${prefix}/${TEMP_SEGMENT}/${id}`;
  };
  const storedKey = (sha256: string) => {
    assertSha256(sha256);
    return `${prefix}/${sha256.slice(0, 2)}/${sha256}`;
  };
  const exists = async (key: string) => {
    try {
      await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  };
  const read = async (key: string): Promise<Readable> => {
    const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return object.Body as Readable;
  };
  const remove = async (key: string) => {
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
  };

  const keysUnder = async (keyPrefix: string) => {
    const keys: { key: string; lastModified?: Date }[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: keyPrefix, ContinuationToken: token }));
      for (const object of page.Contents ?? []) if (object.Key) keys.push({ key: object.Key, lastModified: object.LastModified });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  };

  return {
    async writeTemporary(source) {
      const id = randomUUID();
      const upload = new Upload({
        client,
        params: { Bucket: bucket, Key: temporaryKey(id), Body: source, ...encryption },
        leavePartsOnError: false,
      });
      // A source that fails mid-stream must fail the upload (lib-storage would otherwise wait for more bytes).
      const failed = new Promise<never>((_resolve, reject) => source.once('error', reject));
      try {
        await Promise.race([upload.done(), failed]);
      } catch (error) {
        await upload.abort().catch(() => undefined);
        await remove(temporaryKey(id)).catch(() => undefined);
        throw error;
      }
      return id;
    },
    async place(temporaryId, sha256) {
      const source = temporaryKey(temporaryId);
      const target = storedKey(sha256);
      const created = !(await exists(target));
      if (created) {
        await client.send(
          new CopyObjectCommand({ Bucket: bucket, Key: target, CopySource: `${bucket}/${encodeURI(source)}`, ...encryption }),
        );
      }
      await remove(source);
      return { created };
    },
    discard: async (temporaryId) => remove(temporaryKey(temporaryId)),
    openTemporary: async (temporaryId) => read(temporaryKey(temporaryId)),
    open: async (sha256) => read(storedKey(sha256)),
    has: async (sha256) => exists(storedKey(sha256)),
    remove: async (sha256) => remove(storedKey(sha256)),
    list: async () => (await keysUnder(`${prefix}/`)).map(({ key }) => key.slice(prefix.length + 1)).sort(),
    async removeAbandoned() {
      const before = Date.now() - abandonedAfterMs;
      const abandoned = (await keysUnder(`${prefix}/${TEMP_SEGMENT}/`)).filter(
        ({ lastModified }) => lastModified && lastModified.getTime() < before,
      );
      for (const { key } of abandoned) await remove(key);
      return abandoned.length;
    },
  };
}

/** The client for OBJECT_STORE_* settings: path-style addressing whenever an endpoint is given (MinIO, s3rver, Ceph). */
export function s3ClientFrom(settings: { region: string; endpoint?: string; accessKeyId?: string; secretAccessKey?: string }): S3Client {
  return new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint, forcePathStyle: true } : {}),
    // Without explicit keys the SDK's default chain applies (AWS_* variables, web identity, instance role).
    ...(settings.accessKeyId && settings.secretAccessKey
      ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
      : {}),
  });
}
