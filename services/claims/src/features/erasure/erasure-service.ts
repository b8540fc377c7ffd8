import { randomUUID } from 'node:crypto';
import type { Knex } from '@platform/db';
import { problems } from '@platform/http';
import { recordClaimChange } from '../../shared/claim-change';
import { isUuid } from '../../shared/claim-state';
import { forgetClaimantName } from '../claims-list';
import { closeClaimantExports } from '../exports';
import { retentionPolicyStore } from '../retention-policy';
import { claimClaimantErased } from './erasure-events';
import type { BlockingReason, Erasure, ErasureRequest } from './erasure-schemas';
import { erasureStore, type ClaimRetention } from './erasure-store';

/** Destroys the claimant's data key on the caller's transaction (`ClaimantKeys.destroyKey`). */
export type DestroyClaimantKey = (trx: Knex, claimantId: string) => Promise<void>;

export interface ErasureOptions {
  exchange: string;
  destroyKey: DestroyClaimantKey;
}

interface BlockingClaim {
  claim_id: string;
  claim_number: string;
  reason: BlockingReason;
  retained_until?: string;
}

/** Why each claim stops the erasure: open, on hold, or kept by the retention policy until a date. */
function blockingClaims(claims: ClaimRetention[], now: Date): BlockingClaim[] {
  return claims.flatMap((claim): BlockingClaim[] => {
    const of = { claim_id: claim.id, claim_number: claim.claim_number };
    const blocking: BlockingClaim[] = [];
    if (claim.open) blocking.push({ ...of, reason: 'claim_open' });
    if (claim.on_hold) blocking.push({ ...of, reason: 'legal_hold' });
    if (claim.retained_until !== null && new Date(claim.retained_until) > now)
      blocking.push({ ...of, reason: 'retention_not_passed', retained_until: new Date(claim.retained_until).toISOString() });
    return blocking;
  });
}

function refusal(blocking: BlockingClaim[]) {
  const reasons = [...new Set(blocking.map((claim) => claim.reason))];
  const numbersFor = (reason: BlockingReason) =>
    blocking
      .filter((claim) => claim.reason === reason)
      .map((claim) => claim.claim_number)
      .join(', ');
  const retentionPassesAt = blocking
    .flatMap((claim) => (claim.retained_until ? [claim.retained_until] : []))
    .sort()
    .at(-1);
  const sentences = {
    claim_open: () => `claims still open: ${numbersFor('claim_open')}`,
    legal_hold: () => `claims on legal hold: ${numbersFor('legal_hold')}`,
    retention_not_passed: () => `retention has not passed for ${numbersFor('retention_not_passed')} (until ${retentionPassesAt})`,
  };
  return problems.conflict(`The claimant cannot be erased: ${reasons.map((reason) => sentences[reason]()).join('; ')}`, {
    reasons,
    blocking_claims: blocking,
    retention_passes_at: retentionPassesAt ?? null,
  });
}

/**
 * Erases a claimant (run it with `transactional`): refused while a claim is open, on legal hold or kept by the
 * retention policy; else, in one transaction, their data key is destroyed, their claims become tombstones
 * (access tokens revoked, texts to them blanked, kits and intake retries deleted), their exports closed, their name leaves the
 * search index, each claim announces `claim.claimant_erased`, and the erasure is recorded. Their files are
 * and export archives are removed after the commit (`destroyErasedFiles`): nothing sealed with the key is readable meanwhile.
 * Erasing an erased claimant returns the existing record (`created: false`).
 */
export const erasureService = (options: ErasureOptions) => (db: Knex) => ({
  async erase(claimantId: string, request: ErasureRequest, actor: string): Promise<{ erasure: Erasure; created: boolean }> {
    if (!isUuid(claimantId)) throw problems.notFound('No such claimant');
    const id = claimantId.toLowerCase();
    const store = erasureStore(db);
    if (!(await store.claimantExists(id))) throw problems.notFound('No such claimant');
    const policy = await retentionPolicyStore(db).current();
    const claims = await store.lockClaimsOf(id, policy.retention_days);
    const earlier = await store.erasureOf(id);
    if (earlier) return { erasure: earlier, created: false };
    const blocking = blockingClaims(claims, new Date());
    if (blocking.length > 0) throw refusal(blocking);

    const claimIds = claims.map((claim) => claim.id);
    await options.destroyKey(db, id);
    await store.forgetClaimant(id);
    await closeClaimantExports(db, id);
    const files = claimIds.length > 0 ? await store.tombstoneClaims(claimIds) : [];
    if (claimIds.length > 0) await forgetClaimantName(db as Knex.Transaction, claimIds);
    const erasureId = randomUUID();
    for (const claimId of claimIds) {
      await recordClaimChange(db, options.exchange, {
        claimId,
        event: claimClaimantErased,
        actor,
        reason: `Claimant erased (legal basis: ${request.legal_basis})`,
        data: { claimant_id: id, erasure_id: erasureId, claim_ids: claimIds, legal_basis: request.legal_basis },
      });
    }
    const erasure = await store.recordErasure({
      id: erasureId,
      claimant_id: id,
      claim_ids: claimIds,
      legal_basis: request.legal_basis,
      reason: request.reason,
      erased_by: actor,
      files,
    });
    return { erasure, created: true };
  },
});
