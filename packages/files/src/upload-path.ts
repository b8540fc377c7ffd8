import type { Knex } from '@platform/db';
import type { ServiceDeps } from '@platform/runtime';
import type { FilePlacements } from './file-placements';
import type { FileStorage } from './file-storage';
import { storedAddress, type UploadedFile } from './upload-pipeline';
import { scanUpload, type ScanOutcome, type VirusScanner } from './virus-scanner';

/** A file of an upload with the virus scanner's outcome (or `pending`/`not_scanned`). */
export type ScannedFile<F extends UploadedFile = UploadedFile> = F & { scan: ScanOutcome };

export interface UploadPathOptions {
  storage: FileStorage;
  placements: FilePlacements;
  scanner: VirusScanner | undefined;
  logger: ServiceDeps['logger'];
}

export interface UploadSteps<F extends UploadedFile, T> {
  /** Checks the request and types its files by their bytes before any costly work; throws a problem to refuse. */
  accept(files: UploadedFile[]): F[] | Promise<F[]>;
  /**
   * The transaction that files them: it calls `place(trx)` (announcements settled, content locked, files at
   * their content addresses) and writes its rows on the same transaction.
   */
  write(files: ScannedFile<F>[], place: (trx: Knex) => Promise<void>): Promise<T>;
  /**
   * After its scan, before it is placed: turns a file into what is stored (an encrypted temporary object with
   * `storedAs`, see sealTemporary), so no plaintext reaches its final address. Absent: stored as received.
   */
  seal?(file: ScannedFile<F>): Promise<ScannedFile<F>>;
}

/**
 * The one way an upload is filed, in every service: accept → scan each file (and seal it, when the caller
 * encrypts) → announce the placements
 * (file-placements.ts) → the caller's transaction places them with its rows. On any failure the request's
 * temporary files are discarded and what a rolled-back transaction placed is recovered; a cleanup that
 * fails (storage or database down) is logged, and left to the start-up sweep and the periodic recovery.
 */
export function uploadPath(options: UploadPathOptions) {
  const { storage, placements, scanner, logger } = options;
  const warn = (what: string, requestId: unknown) => (error: unknown) =>
    logger.warn({ err: error, request_id: requestId }, `could not ${what} of a failed upload`);

  return async function fileUpload<F extends UploadedFile, T>(
    received: UploadedFile[],
    steps: UploadSteps<F, T>,
    requestId?: unknown,
  ): Promise<T> {
    let announcements: string[] = [];
    const temporaryIds = received.map((file) => file.temporaryId);
    try {
      const files = await steps.accept(received);
      const stored: ScannedFile<F>[] = [];
      for (const file of files) {
        const scanned = { ...file, scan: await scanUpload(scanner, () => storage.openTemporary(file.temporaryId)) };
        const sealed = steps.seal ? await steps.seal(scanned) : scanned;
        temporaryIds.push(sealed.temporaryId);
        stored.push(sealed);
      }
      announcements = await placements.announce(stored.map(storedAddress));
      return await steps.write(stored, (trx) => placements.placeAll(trx, stored, announcements));
    } catch (error) {
      const discard = (id: string) => storage.discard(id).catch(warn('discard the temporary files', requestId));
      await Promise.all([...new Set(temporaryIds)].map(discard));
      await placements.recover(announcements).catch(warn('remove the placed files', requestId));
      throw error;
    }
  };
}

export type FileUpload = ReturnType<typeof uploadPath>;
