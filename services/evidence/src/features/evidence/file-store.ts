import type { Knex } from '@platform/db';
import { filePlacements, fileStorageFor, type FileStorage, type ObjectStoreConfig } from '@platform/files';
import { evidenceStore } from './evidence-store';

/**
 * Evidence bytes, content-addressed: `<DATA_DIR>/evidence/files/<sha[0..2]>/<sha>` (temporary files in
 * `<DATA_DIR>/evidence/tmp`), or the same keys under OBJECT_STORE_URL.
 */
export function evidenceStorage(config: ObjectStoreConfig, dataDir: string): FileStorage {
  return fileStorageFor(config, dataDir, { path: 'evidence/files', tempPath: 'evidence/tmp' });
}

/** Placements of evidence files in flight, under the same per-content lock as the transaction that places them. */
export function evidencePlacements(db: Knex, files: FileStorage) {
  return filePlacements(db, {
    storage: files,
    lockNamespace: 'evidence.file',
    isReferenced: (trx, sha256) => evidenceStore(trx).bytesReferenced(sha256),
  });
}
