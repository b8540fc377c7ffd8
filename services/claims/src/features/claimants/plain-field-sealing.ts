import type { Knex } from '@platform/db';
import { startPeriodicTask, type PeriodicTask } from '@platform/http';
import type { ServiceDeps } from '@platform/runtime';
import { claimStore } from '../../shared/claim-store';
import {
  SEALED_PREFIX_PATTERN,
  UPDATE_TEXTS,
  reopeningReasonContext,
  sealPlainColumns,
  updateFieldContext,
} from '../../shared/claimant-fields';
import type { ClaimantPrivacy } from './claimant-keys';

const BATCH = 100;
/** Rows written in plain text appear only before encryption was switched on (or while it was off): an hourly look suffices. */
export const PLAIN_FIELD_SEALING_INTERVAL_MS = 60 * 60_000;

/** Claims of claimants not erased that still hold a personal field in plain text (the name, a status update's text, a reopening's reason). */
async function claimsWithPlainFields(db: Knex, limit: number): Promise<string[]> {
  const plainName = db('claims').whereNull('claimant_erased_at').whereNot('claimant_name', 'like', SEALED_PREFIX_PATTERN).select('id');
  const plainUpdate = db('status_updates as u')
    .join('claims as c', 'c.id', 'u.claim_id')
    .whereNull('c.claimant_erased_at')
    .whereNot('u.what_happened', 'like', SEALED_PREFIX_PATTERN)
    .select('u.claim_id as id');
  // a reopening migration 0031 took out of the timeline, on a claim sealed before
  const plainReopening = db('claim_reopenings as r')
    .join('claims as c', 'c.id', 'r.claim_id')
    .whereNull('c.claimant_erased_at')
    .whereNot('r.reason', 'like', SEALED_PREFIX_PATTERN)
    .select('r.claim_id as id');
  const rows: { id: string }[] = await db.from(plainName.union(plainUpdate).union(plainReopening).as('plain')).distinct('id').limit(limit);
  return rows.map((row) => row.id);
}

/**
 * Seals one claim's plain personal fields (its columns, its status updates' texts, its reopenings' reasons) with
 * its claimant's data key, giving the claimant one if they have none, in one transaction.
 */
async function sealClaim(db: Knex, privacy: ClaimantPrivacy, claimId: string): Promise<void> {
  await db.transaction(async (trx) => {
    const claim = await trx('claims').where({ id: claimId }).forUpdate().first('claimant_id', 'claimant_erased_at');
    if (!claim || claim.claimant_erased_at) return;
    const key = await privacy.keys.keyOrNewFor(trx, claim.claimant_id);
    await claimStore(trx).sealPlainFields(claimId, key);
    for (const update of await trx('status_updates')
      .where({ claim_id: claimId })
      .select('update_id', ...UPDATE_TEXTS)) {
      const sealed = sealPlainColumns(key, update, UPDATE_TEXTS, (column) => updateFieldContext(column, claimId));
      if (Object.keys(sealed).length > 0) await trx('status_updates').where({ update_id: update.update_id }).update(sealed);
    }
    for (const reopening of await trx('claim_reopenings').where({ claim_id: claimId }).select('update_id', 'reason')) {
      const sealed = sealPlainColumns(key, reopening, ['reason'], () => reopeningReasonContext(reopening.update_id));
      if (Object.keys(sealed).length > 0) await trx('claim_reopenings').where({ update_id: reopening.update_id }).update(sealed);
    }
  });
}

/** One pass: every claim with plain personal fields, a batch at a time. Returns how many claims it sealed. */
export async function sealPlainFields(db: Knex, privacy: ClaimantPrivacy): Promise<number> {
  if (!privacy.encrypting) return 0;
  let sealed = 0;
  for (;;) {
    const claimIds = await claimsWithPlainFields(db, BATCH);
    for (const claimId of claimIds) await sealClaim(db, privacy, claimId);
    sealed += claimIds.length;
    if (claimIds.length < BATCH) return sealed;
  }
}

/**
 * With PRIVACY_ENCRYPTION on, seals what was stored in plain text before (claims filed before migration 0024 or
 * while encryption was off): at start, then hourly. Each claim sealed gets a new version (ETag), once. Adjuster
 * kits are append-only and keep their plain snapshots (erasure deletes them).
 */
export function startPlainFieldSealing(deps: Pick<ServiceDeps, 'db' | 'logger' | 'metrics'>, privacy: ClaimantPrivacy): PeriodicTask {
  return startPeriodicTask({
    name: 'plain-field-sealing',
    work: () => sealPlainFields(deps.db, privacy),
    intervalMs: PLAIN_FIELD_SEALING_INTERVAL_MS,
    logger: deps.logger,
    metrics: deps.metrics,
  });
}
