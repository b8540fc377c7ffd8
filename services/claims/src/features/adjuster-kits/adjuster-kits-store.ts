import { canonicalJson } from '@platform/canonical-json';
import type { Knex } from '@platform/db';
import { kitSnapshotContext, openField, sealField } from '../../shared/claimant-fields';

/** Kits of claims whose claimant has data key `key` (null: encryption off): the snapshot is sealed with it. */
export function adjusterKitsStore(db: Knex, key: Buffer | null) {
  return {
    /** Stores the snapshot as its canonical JSON, so opening it gives the bytes its sha256 covers. */
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
        snapshot: sealField(key, canonicalJson(kit.snapshot), kitSnapshotContext(kit.kit_id)),
        sha256: kit.sha256,
      });
    },

    /** One kit of the claim (kitId a UUID): its snapshot's canonical JSON and its sha256, or undefined. */
    async find(claimId: string, kitId: string): Promise<{ snapshot: string; sha256: string } | undefined> {
      const row = await db('adjuster_kits').where({ id: kitId, claim_id: claimId }).first('snapshot', 'sha256');
      if (!row) return undefined;
      const snapshot = openField(key, row.snapshot, kitSnapshotContext(kitId));
      // erasure deletes an erased claimant's kits in the transaction that destroys their key
      if (snapshot === null) throw new Error(`adjuster kit ${kitId} is sealed with a data key that no longer exists`);
      return { snapshot, sha256: row.sha256 };
    },
  };
}
