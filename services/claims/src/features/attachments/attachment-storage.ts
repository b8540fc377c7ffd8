import { fileStorageFor, type FileStorage, type ObjectStoreConfig } from '@platform/files';

/**
 * Attachment files, content-addressed: under `<DATA_DIR>/claims/attachments/<sha[0..2]>/<sha>`, or the
 * same keys under OBJECT_STORE_URL. Names a claimant chose never reach a path or key.
 */
export const ATTACHMENTS_AREA = 'claims/attachments';

export function attachmentStorage(config: ObjectStoreConfig, dataDir: string): FileStorage {
  return fileStorageFor(config, dataDir, { path: ATTACHMENTS_AREA });
}
