import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

async function fsync(target: string): Promise<void> {
  const handle = await open(target, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function exists(target: string): Promise<boolean> {
  try {
    await stat(target);
    return true;
  } catch {
    return false;
  }
}

/**
 * Evidence bytes, content-addressed under `<dataDir>/evidence/files/<sha[0..2]>/<sha>`. Files arrive
 * in a temporary directory on the same file system and are placed atomically (fsync, rename, fsync of
 * the directory), so a stored path always holds complete bytes that match its name.
 */
export class EvidenceFileStore {
  private readonly root: string;
  private readonly tmpDir: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'evidence', 'files');
    this.tmpDir = path.join(dataDir, 'evidence', 'tmp');
  }

  /**
   * Removes temporary files a killed process left behind. Run at start, before the server accepts uploads:
   * DATA_DIR belongs to one instance, so no temporary file can be in use then.
   */
  async removeAbandonedUploads(): Promise<number> {
    const names = await readdir(this.tmpDir).catch(() => [] as string[]);
    await Promise.all(names.map((name) => rm(path.join(this.tmpDir, name), { force: true })));
    return names.length;
  }

  async tempPath(): Promise<string> {
    await mkdir(this.tmpDir, { recursive: true });
    return path.join(this.tmpDir, `${randomUUID()}.part`);
  }

  pathOf(sha256: string): string {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`not a sha256: ${sha256}`);
    return path.join(this.root, sha256.slice(0, 2), sha256);
  }

  /** Moves a complete temporary file into place; `created` is false when the same bytes were already stored. */
  async place(tempPath: string, sha256: string): Promise<{ created: boolean }> {
    const target = this.pathOf(sha256);
    if (await exists(target)) {
      await rm(tempPath, { force: true });
      return { created: false };
    }
    await fsync(tempPath);
    await mkdir(path.dirname(target), { recursive: true });
    await rename(tempPath, target);
    await fsync(path.dirname(target));
    return { created: true };
  }

  async remove(sha256: string): Promise<void> {
    await rm(this.pathOf(sha256), { force: true });
  }

  async discard(tempPath: string): Promise<void> {
    await rm(tempPath, { force: true });
  }

  has(sha256: string): Promise<boolean> {
    return exists(this.pathOf(sha256));
  }
}
