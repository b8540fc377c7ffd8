import { randomUUID } from 'node:crypto';
import type { Knex } from '@platform/db';

/**
 * Arranges a claim with something paid, as the API leaves it after a reserve and a payment within the
 * requester's authority, so a test may close it as `paid` (closing refuses `paid` with nothing paid).
 */
export async function arrangePaidClaim(db: Knex, claimId: string, amount = '1500.00'): Promise<void> {
  await db('reserve_changes').insert({
    id: randomUUID(),
    claim_id: claimId,
    cost_category: 'indemnity',
    currency: 'USD',
    previous_open: '0.00',
    open: amount,
    reserve: amount,
    cause: 'set',
    reason: 'Test reserve',
    actor: 'adjuster-ann',
  });
  await db('payments').insert({
    id: randomUUID(),
    claim_id: claimId,
    cost_category: 'indemnity',
    amount,
    currency: 'USD',
    payee_name: 'Ana Ruiz',
    payee_kind: 'claimant',
    method: 'eft',
    memo: 'Test settlement',
    status: 'approved',
    authority_limit: '5000.00',
    requested_by: 'adjuster-ann',
    decided_by: 'adjuster-ann',
    decided_at: db.raw('clock_timestamp()'),
  });
}
