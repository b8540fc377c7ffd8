import { randomUUID } from 'node:crypto';
import type { Principal } from '@platform/auth';
import type { Knex } from '@platform/db';
import { problems } from '@platform/http';
import { recordClaimChange } from '../../shared/claim-change';
import { isUuid, lockClaim, readClaim } from '../../shared/claim-state';
import { claimLegalHoldPlaced, claimLegalHoldReleased } from './legal-holds-events';
import type { LegalHold } from './legal-holds-schemas';

interface LegalHoldRow {
  id: string;
  claim_id: string;
  reason: string;
  placed_by: string;
  placed_at: Date;
  released_by: string | null;
  release_reason: string | null;
  released_at: Date | null;
}

const holdOf = (row: LegalHoldRow): LegalHold => ({
  hold_id: row.id,
  claim_id: row.claim_id,
  reason: row.reason,
  placed_by: row.placed_by,
  placed_at: new Date(row.placed_at).toISOString(),
  released:
    row.released_at === null ? null : { by: row.released_by!, at: new Date(row.released_at).toISOString(), reason: row.release_reason! },
});

/**
 * Legal holds: while one stands on a claim, its claimant is not erased (by request or by the retention
 * sweep). A person places and releases them, each with a reason kept on the hold and in the claim's
 * timeline; the events carry the hold's id only.
 */
export const legalHoldsService = (exchange: string) => (db: Knex) => ({
  async place(claimId: string, reason: string, caller: Principal): Promise<LegalHold> {
    const claim = await lockClaim(db, claimId);
    const [row]: LegalHoldRow[] = await db('legal_holds')
      .insert({ id: randomUUID(), claim_id: claim.claim_id, reason, placed_by: caller.sub })
      .returning('*');
    await recordClaimChange(db, exchange, {
      claimId: claim.claim_id,
      event: claimLegalHoldPlaced,
      actor: caller.sub,
      reason,
      data: { hold_id: row.id },
    });
    return holdOf(row);
  },

  async list(claimId: string): Promise<LegalHold[]> {
    const claim = await readClaim(db, claimId);
    const rows: LegalHoldRow[] = await db('legal_holds')
      .where({ claim_id: claim.claim_id })
      .orderBy([{ column: 'placed_at' }, { column: 'id' }]);
    return rows.map(holdOf);
  },

  /** 404 for a hold not on this claim; 409 when it was released already. */
  async release(claimId: string, holdId: string, reason: string, caller: Principal): Promise<LegalHold> {
    const claim = await lockClaim(db, claimId);
    const hold: LegalHoldRow | undefined = isUuid(holdId)
      ? await db('legal_holds').where({ id: holdId.toLowerCase(), claim_id: claim.claim_id }).forUpdate().first()
      : undefined;
    if (!hold) throw problems.notFound('No such legal hold on this claim');
    if (hold.released_at !== null) throw problems.conflict(`This legal hold was released already, by ${hold.released_by}`);
    const [row]: LegalHoldRow[] = await db('legal_holds')
      .where({ id: hold.id })
      .update({ released_by: caller.sub, release_reason: reason, released_at: db.raw('clock_timestamp()') })
      .returning('*');
    await recordClaimChange(db, exchange, {
      claimId: claim.claim_id,
      event: claimLegalHoldReleased,
      actor: caller.sub,
      reason,
      data: { hold_id: row.id },
    });
    return holdOf(row);
  },
});
