import type { Knex } from '@platform/db';
import type { ServiceDeps } from '@platform/runtime';
import type { FilePlacements } from './file-placements';
import type { FileStorage } from './file-storage';
import type { UploadedFile } from './upload-pipeline';
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
}

/**
 * The one way an upload is filed, in every service: accept → scan each file → announce the placements
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
    try {
      const files = await steps.accept(received);
      const scanned: ScannedFile<F>[] = [];
      for (const file of files) scanned.push({ ...file, scan: await scanUpload(scanner, () => storage.openTemporary(file.temporaryId)) });
      announcements = await placements.announce(files.map((file) => file.sha256));
      return await steps.write(scanned, (trx) => placements.placeAll(trx, files, announcements));
    } catch (error) {
      await Promise.all(received.map((file) => storage.discard(file.temporaryId).catch(warn('discard the temporary files', requestId))));
      await placements.recover(announcements).catch(warn('remove the placed files', requestId));
      throw error;
    }
  };
}

export type FileUpload = ReturnType<typeof uploadPath>;
