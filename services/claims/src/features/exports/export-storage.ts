import { fileStorageFor, type FileStorage, type ObjectStoreConfig } from '@platform/files';

/** Export archives, content-addressed under `<DATA_DIR>/claims/exports/`, or the same keys under OBJECT_STORE_URL. */
export const EXPORTS_AREA = 'claims/exports';

export function exportStorage(config: ObjectStoreConfig, dataDir: string): FileStorage {
  return fileStorageFor(config, dataDir, { path: EXPORTS_AREA });
}
