import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertSha256, isTemporaryId, type FileStorage } from './file-storage';

const TEMP_PREFIX = '.incoming-';
/**
 * What a temporary file's write stream may hold while a write is in flight: the chunks that arrive
 * meanwhile go to the file in one writev instead of one thread-pool round trip each, and the socket is
 * not paused for every 64 KiB (the default 16 KiB mark paused it after every chunk).
 */
const WRITE_BUFFER_BYTES = 1 << 20;

async function fsync(target: string): Promise<void> {
  const handle = await open(target, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function exists(target: string): Promise<boolean> {
  return stat(target).then(
    () => true,
    () => false,
  );
}

/**
 * Files in a local directory: `<root>/<sha[0..2]>/<sha>`. A file arrives as `<tempDir>/.incoming-<uuid>`
 * on the same file system, fsynced on its own descriptor before that is closed, and is placed atomically
 * (rename, fsync of the directory), so a stored path always holds complete bytes that match its name. The
 * directory belongs to one instance.
 */
export function localFileStorage(options: { root: string; tempDir?: string }): FileStorage {
  const root = options.root;
  const tempDir = options.tempDir ?? root;
  const temporaryPath = (id: string) => {
    if (!isTemporaryId(id)) throw new Error(`not a temporary file id: ${id.slice(0, 80)}`);
    return path.join(tempDir, `${TEMP_PREFIX}${id}`);
  };
  const storedPath = (sha256: string) => {
    assertSha256(sha256);
    return path.join(root, sha256.slice(0, 2), sha256);
  };

  return {
    async writeTemporary(source) {
      await mkdir(tempDir, { recursive: true });
      const id = randomUUID();
      const target = temporaryPath(id);
      try {
        // flush: fsync before close, so placing it needs no second open and no fsync inside the caller's transaction.
        await pipeline(source, createWriteStream(target, { flags: 'wx', mode: 0o600, highWaterMark: WRITE_BUFFER_BYTES, flush: true }));
      } catch (error) {
        await rm(target, { force: true });
        throw error;
      }
      return id;
    },
    async place(temporaryId, sha256) {
      const source = temporaryPath(temporaryId);
      const target = storedPath(sha256);
      if (await exists(target)) {
        await rm(source, { force: true });
        return { created: false };
      }
      await mkdir(path.dirname(target), { recursive: true });
      await rename(source, target);
      await fsync(path.dirname(target));
      return { created: true };
    },
    async discard(temporaryId) {
      await rm(temporaryPath(temporaryId), { force: true });
    },
    async openTemporary(temporaryId) {
      return openExisting(temporaryPath(temporaryId));
    },
    async open(sha256) {
      return openExisting(storedPath(sha256));
    },
    has: async (sha256) => exists(storedPath(sha256)),
    async remove(sha256) {
      await rm(storedPath(sha256), { force: true });
    },
    async list() {
      const under = async (directory: string) =>
        (await readdir(directory, { recursive: true, withFileTypes: true }).catch(() => []))
          .filter((entry) => entry.isFile())
          .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
      return [...new Set([...(await under(root)), ...(await under(tempDir))])].sort();
    },
    async removeAbandoned() {
      // Run at start, before the server accepts uploads: no temporary file can be in use then.
      const names = (await readdir(tempDir).catch(() => [] as string[])).filter((name) => name.startsWith(TEMP_PREFIX));
      await Promise.all(names.map((name) => rm(path.join(tempDir, name), { force: true })));
      return names.length;
    },
  };
}

const READ_BUFFER_BYTES = 64 * 1024;

/**
 * A read stream that has opened the file, so a missing file rejects here rather than erroring later. Its
 * buffer is no larger than the file: each read allocates a whole buffer, and a binder reading thousands
 * of 16 KiB files with 64 KiB buffers left ~64 MB of them for the garbage collector per zip.
 */
async function openExisting(file: string): Promise<Readable> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    return handle.createReadStream({ highWaterMark: Math.max(1, Math.min(size, READ_BUFFER_BYTES)) });
  } catch (error) {
    await handle.close();
    throw error;
  }
}
