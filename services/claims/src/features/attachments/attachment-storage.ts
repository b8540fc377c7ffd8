import type { Knex } from '@platform/db';
import { filePlacements, fileStorageFor, type FileStorage, type ObjectStoreConfig } from '@platform/files';
import { attachmentsStore } from './attachments-store';

/**
 * Attachment files, content-addressed: under `<DATA_DIR>/claims/attachments/<sha[0..2]>/<sha>`, or the
 * same keys under OBJECT_STORE_URL. Names a claimant chose never reach a path or key.
 */
export const ATTACHMENTS_AREA = 'claims/attachments';

export function attachmentStorage(config: ObjectStoreConfig, dataDir: string): FileStorage {
  return fileStorageFor(config, dataDir, { path: ATTACHMENTS_AREA });
}

/** Placements of attachment files in flight, under the same per-content lock as the upload transaction. */
export function attachmentPlacements(db: Knex, storage: FileStorage) {
  return filePlacements(db, {
    storage,
    lockNamespace: 'claims.attachment',
    isReferenced: (trx, sha256) => attachmentsStore(trx).contentIsReferenced(sha256),
  });
}
