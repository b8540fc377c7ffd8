import { Counter, type Registry } from 'prom-client';
import type { FileStorage } from '@platform/files';
import { withTransactional } from '@platform/db';
import { HttpProblem, startPeriodicTask } from '@platform/http';
import type { ServiceDeps } from '@platform/runtime';
import { destroyClaimFiles } from '../attachments';
import { removeClaimantExportArchives } from '../exports';
import { retentionPolicyStore } from '../retention-policy';
import { erasureService, type ErasureOptions } from './erasure-service';
import { erasureStore } from './erasure-store';

export const RETENTION_SWEEP_ACTOR = 'system:retention-sweep';
const BATCH = 100;

/** Where an erased claimant's files are: their claims' attachments, and the archives of their exports. */
export interface ErasedFileStorage {
  attachments: FileStorage;
  exports: FileStorage;
}

/**
 * Removes the files of erasures whose files are not gone yet (after the erasure's commit, and again on every
 * sweep until it succeeds): the attachments through their own `destroyClaimFiles` (bytes a claim whose claimant
 * is not erased still holds stay) and the claimant's export archives. Returns how many erasures finished.
 */
export async function destroyErasedFiles(
  deps: Pick<ServiceDeps, 'db' | 'logger'>,
  storage: ErasedFileStorage,
  only?: string,
): Promise<number> {
  const store = erasureStore(deps.db);
  const pending = await store.filesPending(BATCH, only);
  for (const erasure of pending) {
    await destroyClaimFiles(deps, storage.attachments, erasure.claim_ids);
    await removeClaimantExportArchives(deps.db, storage.exports, erasure.claimant_id);
    await store.markFilesDestroyed(erasure.id);
  }
  return pending.length;
}

const erasedCounters = new WeakMap<Registry, Counter>();
function erasedCounter(registry: Registry): Counter {
  let counter = erasedCounters.get(registry);
  if (!counter) {
    counter = new Counter({
      name: 'claims_retention_erasures_total',
      help: 'Claimants the retention sweep erased (every claim past retention, none on legal hold)',
      registers: [registry],
    });
    erasedCounters.set(registry, counter);
  }
  return counter;
}

/**
 * One pass of the retention sweep: erases up to a batch of claimants whose every claim is past the policy in
 * force and on no hold, each in its own transaction with the reason "retention policy v<N>" (a claimant whose
 * claims changed meanwhile is refused as by a request, and skipped), then retries pending file removals.
 */
export async function sweepRetention(
  deps: Pick<ServiceDeps, 'db' | 'logger' | 'metrics'>,
  options: ErasureOptions,
  storage: ErasedFileStorage,
) {
  const policy = await retentionPolicyStore(deps.db).current();
  const erasure = withTransactional(erasureService(options), deps.db);
  const erased: string[] = [];
  for (const claimantId of await erasureStore(deps.db).dueClaimants(policy.retention_days, BATCH)) {
    try {
      const { created } = await erasure.transactional((service) =>
        service.erase(
          claimantId,
          { reason: `retention policy v${policy.version}`, legal_basis: 'retention_expired' },
          RETENTION_SWEEP_ACTOR,
        ),
      );
      if (created) erased.push(claimantId);
    } catch (error) {
      if (!(error instanceof HttpProblem && error.status === 409)) throw error;
    }
  }
  erasedCounter(deps.metrics).inc(erased.length);
  if (erased.length > 0) deps.logger.info({ claimants: erased, policy_version: policy.version }, 'retention sweep erased claimants');
  await destroyErasedFiles(deps, storage);
  return erased.length;
}

export function startRetentionSweeper(deps: ServiceDeps, options: ErasureOptions, storage: ErasedFileStorage, intervalMs: number) {
  return startPeriodicTask({
    name: 'retention-sweep',
    work: () => sweepRetention(deps, options, storage),
    intervalMs,
    logger: deps.logger,
    metrics: deps.metrics,
  });
}
