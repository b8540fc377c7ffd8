import path from 'node:path';
import { ConfigError, variable } from '@platform/config';
import type { FileStorage } from './file-storage';
import { localFileStorage } from './local-file-storage';
import { s3ClientFrom, s3FileStorage } from './s3-file-storage';

export const objectStoreVariables = {
  OBJECT_STORE_URL: variable.url(
    'Object storage for uploaded files (s3://bucket or s3://bucket/prefix); unset keeps them under DATA_DIR (one instance only)',
    ['s3'],
  ),
  OBJECT_STORE_ENDPOINT: variable.url('S3-compatible endpoint (MinIO, Ceph, s3rver), addressed path-style; unset uses AWS S3', [
    'http',
    'https',
  ]),
  OBJECT_STORE_REGION: variable.string('Region of the object store', 'us-east-1'),
  OBJECT_STORE_ACCESS_KEY_ID: variable.string(
    'Access key of the object store; unset uses the AWS default chain (AWS_ACCESS_KEY_ID, web identity, instance role)',
  ),
  OBJECT_STORE_SECRET_ACCESS_KEY: variable.string('Secret key belonging to OBJECT_STORE_ACCESS_KEY_ID'),
  OBJECT_STORE_SSE: variable.string('Server-side encryption asked for on every write: AES256 or aws:kms; unset sends none'),
  OBJECT_STORE_SSE_KMS_KEY_ID: variable.string('KMS key for OBJECT_STORE_SSE=aws:kms; unset uses the bucket default key'),
};

export type ObjectStoreConfig = {
  OBJECT_STORE_URL?: string;
  OBJECT_STORE_ENDPOINT?: string;
  OBJECT_STORE_REGION: string;
  OBJECT_STORE_ACCESS_KEY_ID?: string;
  OBJECT_STORE_SECRET_ACCESS_KEY?: string;
  OBJECT_STORE_SSE?: string;
  OBJECT_STORE_SSE_KMS_KEY_ID?: string;
};

/**
 * The storage of one area of files (`area` like `claims/attachments`): S3 under `<prefix>/<area>` when
 * OBJECT_STORE_URL is set, else `<dataDir>/<area>` with temporary files in `tempArea` (default: the same).
 */
export function fileStorageFor(config: ObjectStoreConfig, dataDir: string, area: { path: string; tempPath?: string }): FileStorage {
  if (!config.OBJECT_STORE_URL) {
    return localFileStorage({ root: path.join(dataDir, area.path), tempDir: area.tempPath && path.join(dataDir, area.tempPath) });
  }
  const url = new URL(config.OBJECT_STORE_URL);
  if (config.OBJECT_STORE_SSE && !['AES256', 'aws:kms'].includes(config.OBJECT_STORE_SSE)) {
    throw new ConfigError(`OBJECT_STORE_SSE must be AES256 or aws:kms, got "${config.OBJECT_STORE_SSE}"`);
  }
  if (Boolean(config.OBJECT_STORE_ACCESS_KEY_ID) !== Boolean(config.OBJECT_STORE_SECRET_ACCESS_KEY)) {
    throw new ConfigError('OBJECT_STORE_ACCESS_KEY_ID and OBJECT_STORE_SECRET_ACCESS_KEY are set together or not at all');
  }
  const client = s3ClientFrom({
    region: config.OBJECT_STORE_REGION,
    endpoint: config.OBJECT_STORE_ENDPOINT,
    accessKeyId: config.OBJECT_STORE_ACCESS_KEY_ID,
    secretAccessKey: config.OBJECT_STORE_SECRET_ACCESS_KEY,
  });
  const prefix = [url.pathname.replace(/^\/+|\/+$/g, ''), area.path].filter(Boolean).join('/');
  return s3FileStorage({
    client,
    bucket: url.hostname,
    prefix,
    serverSideEncryption: config.OBJECT_STORE_SSE as 'AES256' | 'aws:kms' | undefined,
    kmsKeyId: config.OBJECT_STORE_SSE_KMS_KEY_ID,
  });
}
