import type { Knex } from '@platform/db';
import { UUID_PATTERN, problems } from '@platform/http';
import type { Claim } from './claim-schemas';
import { claimStore, withoutTokenHash } from './claim-store';

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

/**
 * Reads a claim and locks its row until the transaction ends, so the changes to one claim (triage
 * runs, decisions, status updates) happen one after another. Unknown (or not a UUID) is 404.
 */
export async function lockClaim(db: Knex, claimId: string): Promise<Claim> {
  const claim = await claimStore(db).find(claimId, { forUpdate: true });
  if (!claim) throw problems.notFound('No such claim');
  return withoutTokenHash(claim);
}

/** The claim (404 when unknown), unlocked. */
export async function readClaim(db: Knex, claimId: string): Promise<Claim> {
  const claim = await claimStore(db).find(claimId);
  if (!claim) throw problems.notFound('No such claim');
  return withoutTokenHash(claim);
}
