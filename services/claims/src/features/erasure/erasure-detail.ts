import type { Knex } from '@platform/db';

/** The claim file's (GET /api/claims/claims/{id}) part of erasure: when the claimant was erased. */
export const claimErasureDetailProperties = {
  claimant_erased_at: {
    type: ['string', 'null'],
    format: 'date-time',
    description:
      'When the claim\'s claimant was erased (null unless erased): the claimant is then the tombstone (name "Erased claimant", ' +
      'email and phone null, loss description "Erased")',
  },
} as const;

export async function claimErasureDetail(db: Knex, claimId: string): Promise<{ claimant_erased_at: string | null }> {
  const row = await db('claims').where({ id: claimId }).first('claimant_erased_at');
  return { claimant_erased_at: row?.claimant_erased_at ? new Date(row.claimant_erased_at).toISOString() : null };
}
