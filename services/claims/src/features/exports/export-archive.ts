import { createHash } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import type { Archiver, ArchiverOptions } from 'archiver';
import { openSealed, sealedStream, type FileStorage } from '@platform/files';
import type { ClaimantKeys } from '../claimants';
import type { ManifestEntry } from './exports-schemas';
import type { ExportRow } from './exports-store';

// archiver 7 at runtime (CommonJS, a factory function); @types/archiver describes 8's classes.
const archiver = require('archiver') as (format: 'zip', options?: ArchiverOptions) => Archiver;

const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** What an export archive's encryption is bound to (the AAD). */
const contextOf = (exportId: string) => `claims.export:${exportId}`;

/** The archive as stored: SHA-256 and size of the zip, and where its encrypted bytes are (null: stored plain at `sha256`). */
export interface StoredArchive {
  sha256: string;
  size: number;
  storedSha256: string | null;
}

/**
 * A zip written straight into file storage as its entries are added, each entry's SHA-256 and size kept for
 * the manifest. `finish` adds `manifest.json` (the given head and every entry) and `SHA256SUMS` (the
 * `sha256sum -c` form, over every entry and the manifest), then stores the zip content-addressed. With the
 * claimant's data key, the zip is encrypted as it is written (`pvf1`, bound to the export id) and stored
 * under the SHA-256 of its encrypted bytes.
 */
export function exportArchive(storage: FileStorage, sealing?: { key: Buffer; exportId: string }) {
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
  const sealed = sealing && sealedStream(body, sealing.key, contextOf(sealing.exportId));
  const stored = storage.writeTemporary(sealed ? sealed.bytes : body);
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
    async finish(head: Record<string, unknown>): Promise<StoredArchive> {
      const manifest = json({ ...head, entries });
      add('manifest.json', manifest);
      archive.append(entries.map((entry) => `${entry.sha256}  ${entry.path}\n`).join(''), { name: 'SHA256SUMS', date });
      await Promise.race([archive.finalize(), failed]);
      const temporaryId = await Promise.race([stored, failed]);
      const sha256 = zipHash.digest('hex');
      const storedSha256 = sealed ? sealed.storedSha256() : null;
      await storage.place(temporaryId, storedSha256 ?? sha256);
      return { sha256, size: zipSize, storedSha256 };
    },
    abort() {
      archive.abort();
      body.destroy();
    },
  };
}

/** The zip of a ready export, decrypted when it was stored encrypted; rejects when it is gone or its claimant's key was destroyed. */
export async function openExportArchive(
  storage: FileStorage,
  keys: ClaimantKeys,
  row: Pick<ExportRow, 'id' | 'claimant_id' | 'archive_sha256' | 'archive_stored_sha256'>,
): Promise<Readable> {
  if (row.archive_stored_sha256 === null) return storage.open(row.archive_sha256!);
  const key = await keys.keyFor(row.claimant_id);
  if (!key) throw new Error(`the key of export ${row.id} was destroyed`);
  return openSealed(await storage.open(row.archive_stored_sha256), key, contextOf(row.id));
}
