import { fileStorageFor, type FileStorage, type ObjectStoreConfig } from '@platform/files';

/**
 * Evidence bytes, content-addressed: `<DATA_DIR>/evidence/files/<sha[0..2]>/<sha>` (temporary files in
 * `<DATA_DIR>/evidence/tmp`), or the same keys under OBJECT_STORE_URL.
 */
export function evidenceStorage(config: ObjectStoreConfig, dataDir: string): FileStorage {
  return fileStorageFor(config, dataDir, { path: 'evidence/files', tempPath: 'evidence/tmp' });
}
