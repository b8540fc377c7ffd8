import type { Knex } from '@platform/db';
import type { ObjectStoreConfig } from '@platform/files';
import type { ServiceDeps } from '@platform/runtime';
import { attachmentPlacements, attachmentStorage } from './attachment-storage';

const ATTEMPTS = 4;
const FIRST_RETRY_MS = 200;

async function withRetries<T>(attempt: () => Promise<T>, onFailure: (error: unknown, attempt: number) => void): Promise<T> {
  for (let tries = 1; ; tries += 1) {
    try {
      return await attempt();
    } catch (error) {
      onFailure(error, tries);
      if (tries >= ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, FIRST_RETRY_MS * 2 ** (tries - 1)));
    }
  }
}

/**
 * For erasure: removes the stored file of every attachment of these claims, except content that an
 * attachment of another claim also holds (those bytes are that claim's too). Each file is removed under
 * its content lock, so an upload of the same bytes to another claim meanwhile either comes first (and the
 * file stays) or places it again after. Storage failures are retried (4 attempts, backing off from
 * 200 ms) and logged; a file that still cannot be removed fails the call, so the caller can try again.
 * The attachment rows are the caller's. Resolves with how many stored files it removed.
 */
export async function destroyClaimFiles(
  deps: Pick<ServiceDeps, 'db' | 'logger' | 'dataDir'>,
  config: ObjectStoreConfig,
  claimIds: string[],
): Promise<number> {
  if (claimIds.length === 0) return 0;
  const storage = attachmentStorage(config, deps.dataDir);
  const placements = attachmentPlacements(deps.db, storage);
  const contents = (await deps.db('attachments').whereIn('claim_id', claimIds).distinct('sha256').pluck('sha256')) as string[];
  let removed = 0;
  for (const sha256 of contents.sort()) {
    const gone = await deps.db.transaction(async (trx: Knex) => {
      await placements.lockContent(trx, sha256);
      const sharedWithAnotherClaim = await trx('attachments').where({ sha256 }).whereNotIn('claim_id', claimIds).first('id');
      if (sharedWithAnotherClaim) return false;
      return withRetries(
        async () => {
          if (!(await storage.has(sha256))) return false;
          await storage.remove(sha256);
          return true;
        },
        (error, attempt) => deps.logger.warn({ err: error, sha256, attempt, of: ATTEMPTS }, 'could not remove a file of an erased claim'),
      );
    });
    if (gone) removed += 1;
  }
  deps.logger.info({ claims: claimIds.length, files: removed }, 'removed the stored files of erased claims');
  return removed;
}
