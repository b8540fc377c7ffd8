import type { Knex } from '@platform/db';

/**
 * Who a claim's claimant is, and their claims: the `claims.claimant_id` the claimants feature keeps (a
 * claimant is matched across claims by their email, else phone). The one place exports read it.
 */
export async function claimIdsOfClaimant(db: Knex, claimantId: string): Promise<string[]> {
  const rows: { id: string }[] = await db('claims').where({ claimant_id: claimantId }).orderBy(['received_at', 'id']).select('id');
  return rows.map((row) => row.id);
}

export async function claimantOfClaim(db: Knex, claimId: string): Promise<string> {
  const row: { claimant_id: string } | undefined = await db('claims').where({ id: claimId }).first('claimant_id');
  if (!row) throw new Error(`claim ${claimId} does not exist`);
  return row.claimant_id;
}
