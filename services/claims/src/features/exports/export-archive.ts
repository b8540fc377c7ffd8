import { createHash } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import type { Archiver, ArchiverOptions } from 'archiver';
import type { FileStorage } from '@platform/files';
import type { ManifestEntry } from './exports-schemas';

// archiver 7 at runtime (CommonJS, a factory function); @types/archiver describes 8's classes.
const archiver = require('archiver') as (format: 'zip', options?: ArchiverOptions) => Archiver;

const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/**
 * A zip written straight into file storage as its entries are added, each entry's SHA-256 and size kept for
 * the manifest. `finish` adds `manifest.json` (the given head and every entry) and `SHA256SUMS` (the
 * `sha256sum -c` form, over every entry and the manifest), then stores the zip content-addressed.
 */
export function exportArchive(storage: FileStorage) {
  const archive = archiver('zip', { zlib: { level: 6 } });
  const zipHash = createHash('sha256');
  let zipSize = 0;
  const body = new PassThrough();
  archive.on('data', (chunk: Buffer) => {
    zipHash.update(chunk);
    zipSize += chunk.length;
  });
  archive.pipe(body);
  const failed = new Promise<never>((_, reject) => archive.once('error', reject));
  failed.catch(() => undefined);
  const stored = storage.writeTemporary(body);
  stored.catch(() => undefined);
  const entries: ManifestEntry[] = [];
  const date = new Date();

  const add = (path: string, bytes: Buffer) => {
    archive.append(bytes, { name: path, date });
    entries.push({ path, sha256: sha256Of(bytes), size_bytes: bytes.length });
  };
  const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);

  return {
    addJson: (path: string, value: unknown) => add(path, json(value)),
    async addFile(path: string, content: Readable) {
      add(path, await bytesOf(content));
    },
    /** Stores the finished zip; the temporary object is discarded if anything failed. */
    async finish(head: Record<string, unknown>): Promise<{ sha256: string; size: number }> {
      const manifest = json({ ...head, entries });
      add('manifest.json', manifest);
      archive.append(entries.map((entry) => `${entry.sha256}  ${entry.path}\n`).join(''), { name: 'SHA256SUMS', date });
      await Promise.race([archive.finalize(), failed]);
      const temporaryId = await Promise.race([stored, failed]);
      const sha256 = zipHash.digest('hex');
      await storage.place(temporaryId, sha256);
      return { sha256, size: zipSize };
    },
    abort() {
      archive.abort();
      body.destroy();
    },
  };
}
