import type { Knex } from '@platform/db';
import type { FileStorage } from '@platform/files';
import { exportsStore } from './exports-store';

/**
 * Erasure's part in exports, on the erasure's transaction: an open build of the claimant fails and no download
 * token opens their exports any more. The rows stay, as the record of what was asked and when.
 */
export async function closeClaimantExports(trx: Knex, claimantId: string): Promise<void> {
  await exportsStore(trx).closeForErasure(claimantId);
}

/** After the erasure's commit (and again until it succeeds): removes the claimant's export archives from storage. */
export async function removeClaimantExportArchives(db: Knex, storage: FileStorage, claimantId: string): Promise<number> {
  let removed = 0;
  for (const sha256 of await exportsStore(db).archivesOf(claimantId)) {
    if (!(await storage.has(sha256))) continue;
    await storage.remove(sha256);
    removed += 1;
  }
  return removed;
}
