import { createHash, randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, readdir, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Attachment files on disk, content-addressed: `<dataDir>/claims/attachments/<sha[0..2]>/<sha>`.
 * A file arrives as a temporary file in the attachments directory (same file system), is fsynced,
 * and is renamed into place, so a stored path always holds the whole file. Names a claimant chose
 * never reach a path.
 */
export function attachmentsRoot(dataDir: string): string {
  return path.join(dataDir, 'claims', 'attachments');
}

export function storedFilePath(dataDir: string, sha256: string): string {
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error('not a SHA-256 hex digest');
  return path.join(attachmentsRoot(dataDir), sha256.slice(0, 2), sha256);
}

const TEMP_PREFIX = '.incoming-';

/**
 * Removes temporary files a killed process left behind. Run at start, before the server accepts uploads:
 * DATA_DIR belongs to one instance, so no temporary file can be in use then.
 */
export async function removeAbandonedUploads(dataDir: string): Promise<number> {
  const root = attachmentsRoot(dataDir);
  const names = await readdir(root).catch(() => [] as string[]);
  const abandoned = names.filter((name) => name.startsWith(TEMP_PREFIX));
  await Promise.all(abandoned.map((name) => unlink(path.join(root, name)).catch(() => undefined)));
  return abandoned.length;
}

/** Bytes file-type needs to recognise every accepted format. */
export const SNIFF_BYTES = 4100;

export interface SpooledFile {
  tempPath: string;
  sha256: string;
  sizeBytes: number;
  /** The first SNIFF_BYTES bytes, to decide the type by content. */
  head: Buffer;
}

/**
 * Streams `source` to a temporary file while hashing it; memory holds one chunk and the head, never
 * the file. The temporary file is removed if writing fails.
 */
export async function spoolToTempFile(source: NodeJS.ReadableStream, dataDir: string): Promise<SpooledFile> {
  const root = attachmentsRoot(dataDir);
  await mkdir(root, { recursive: true });
  const tempPath = path.join(root, `${TEMP_PREFIX}${randomUUID()}`);
  const handle = await open(tempPath, 'wx', 0o600);
  const hash = createHash('sha256');
  const headChunks: Buffer[] = [];
  let headLength = 0;
  let sizeBytes = 0;
  try {
    await pipeline(
      source,
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          sizeBytes += chunk.length;
          if (headLength < SNIFF_BYTES) {
            const part = chunk.subarray(0, SNIFF_BYTES - headLength);
            headChunks.push(Buffer.from(part));
            headLength += part.length;
          }
          handle.write(chunk).then(() => done(), done);
        },
      }),
    );
    await handle.sync();
    await handle.close();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await removeFile(tempPath);
    throw error;
  }
  return { tempPath, sha256: hash.digest('hex'), sizeBytes, head: Buffer.concat(headChunks) };
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file, constants.F_OK);
    return true;
  } catch {
    return false;
  }
}

async function fsyncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Moves a spooled file to its content address. Returns true when this call created the stored file,
 * false when the same content was already stored (the temporary file is then discarded).
 */
export async function placeFile(file: SpooledFile, dataDir: string): Promise<boolean> {
  const target = storedFilePath(dataDir, file.sha256);
  await mkdir(path.dirname(target), { recursive: true });
  if (await exists(target)) {
    await removeFile(file.tempPath);
    return false;
  }
  await rename(file.tempPath, target);
  await fsyncDirectory(path.dirname(target));
  return true;
}

export async function removeFile(file: string): Promise<void> {
  await unlink(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}
