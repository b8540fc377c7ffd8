import type { Knex } from '@platform/db';
import type { FileStorage } from '@platform/files';
import type { ServiceDeps } from '@platform/runtime';
import { attachmentPlacements } from './attachment-storage';
import { storedAt } from './attachments-store';

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
 * For erasure: removes the stored file of every attachment of these claims (an encrypted one is its claim's
 * alone; its key is already destroyed, this removes the ciphertext too), except plain content that an
 * attachment of another claim also holds (those bytes are that claim's too) unless that claim's claimant is
 * erased as well (else bytes two erased claimants shared would stay forever). Each file is removed under
 * its content lock, so an upload of the same bytes to another claim meanwhile either comes first (and the
 * file stays) or places it again after. Storage failures are retried (4 attempts, backing off from
 * 200 ms) and logged; a file that still cannot be removed fails the call, so the caller can try again.
 * The attachment rows are the caller's. Resolves with how many stored files it removed.
 */
export async function destroyClaimFiles(
  deps: Pick<ServiceDeps, 'db' | 'logger'>,
  storage: FileStorage,
  claimIds: string[],
): Promise<number> {
  if (claimIds.length === 0) return 0;
  const placements = attachmentPlacements(deps.db, storage);
  const rows = (await deps
    .db('attachments')
    .whereIn('claim_id', claimIds)
    .select(deps.db.raw('DISTINCT coalesce(stored_sha256, sha256) AS address'))) as { address: string }[];
  const contents = rows.map((row) => row.address);
  let removed = 0;
  for (const sha256 of contents.sort()) {
    const gone = await deps.db.transaction(async (trx: Knex) => {
      await placements.lockContent(trx, sha256);
      const sharedWithAnotherClaim = await storedAt(trx('attachments as a').join('claims as c', 'c.id', 'a.claim_id'), sha256, 'a')
        .whereNotIn('a.claim_id', claimIds)
        .whereNull('c.claimant_erased_at')
        .first('a.id');
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
