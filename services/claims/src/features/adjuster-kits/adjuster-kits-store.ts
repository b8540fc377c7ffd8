import { canonicalJson } from '@platform/canonical-json';
import type { Knex } from '@platform/db';

export function adjusterKitsStore(db: Knex) {
  return {
    /** Stores the snapshot as its canonical JSON, so reading it back gives the bytes its sha256 covers. */
    async insert(kit: {
      kit_id: string;
      claim_id: string;
      generated_at: Date;
      generated_by: string;
      snapshot: object;
      sha256: string;
    }): Promise<void> {
      await db('adjuster_kits').insert({
        id: kit.kit_id,
        claim_id: kit.claim_id,
        generated_at: kit.generated_at,
        generated_by: kit.generated_by,
        snapshot: canonicalJson(kit.snapshot),
        sha256: kit.sha256,
      });
    },

    /** One kit of the claim (kitId a UUID): its snapshot as stored and its sha256, or undefined. */
    async find(claimId: string, kitId: string): Promise<{ snapshot: string; sha256: string } | undefined> {
      return db('adjuster_kits').where({ id: kitId, claim_id: claimId }).first('snapshot', 'sha256');
    },
  };
}
