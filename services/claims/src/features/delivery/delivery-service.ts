import type { Knex } from '@platform/db';
import { readClaim } from '../../shared/claim-state';
import type { ClaimDeliveries } from './delivery-schemas';
import { deliveriesStore } from './delivery-store';

/** What was sent to a claimant and how its delivery went. */
export const deliveryService = () => (db: Knex) => ({
  /** Every delivery of a claim, oldest first; 404 for an unknown claim. */
  async listOfClaim(claimId: string): Promise<ClaimDeliveries> {
    const claim = await readClaim(db, claimId);
    return { items: await deliveriesStore(db).listOfClaim(claim.claim_id) };
  },
});
