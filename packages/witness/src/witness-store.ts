import type { Knex, Migration } from '@platform/db';

/**
 * The witness's own state: every checkpoint it cosigned (the log's note as received and its cosignature
 * line) and every refusal with its evidence. The standalone witness runs this migration; a service that
 * hosts the witness runs a copy in its own list (the claims service's 0010_claims_witness).
 */
export const witnessMigration: Migration = {
  name: '0001_witness',
  sql: `
      CREATE TABLE witness_checkpoints (
        origin text NOT NULL,
        size bigint NOT NULL CHECK (size >= 1),
        root_hash bytea NOT NULL CHECK (octet_length(root_hash) = 32),
        note text NOT NULL,
        cosignature text NOT NULL,
        cosigned_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (origin, size)
      );
      CREATE TABLE witness_refusals (
        id bigserial PRIMARY KEY,
        origin text NOT NULL,
        reason text NOT NULL CHECK (reason IN ('truncated', 'forked', 'inconsistent')),
        cosigned_note text NOT NULL,
        offered_note text NOT NULL,
        offered_body text NOT NULL,
        proof jsonb,
        refused_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (origin, offered_body)
      );`,
};

export interface CosignedCheckpoint {
  origin: string;
  size: number;
  rootHash: Buffer;
  /** The log's signed note as it was received. */
  note: string;
  /** The witness's signature line over it. */
  cosignature: string;
}

export type RefusalReason = 'truncated' | 'forked' | 'inconsistent';

/** Why the witness would not cosign, with what shows it: both checkpoint notes and the proof that failed. */
export interface Refusal {
  origin: string;
  reason: RefusalReason;
  /** The last checkpoint the witness cosigned, with its cosignature line. */
  cosignedNote: string;
  cosignedSize: number;
  offeredNote: string;
  offeredBody: string;
  offeredSize: number;
  /** The consistency proof the log served (base64 hashes), when it served one. */
  proof: string[] | null;
  refusedAt: string;
}

const bytes = (value: Uint8Array) => (Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength));

export function witnessStore(db: Knex) {
  return {
    async latestCosigned(origin: string): Promise<CosignedCheckpoint | undefined> {
      const row = await db('witness_checkpoints').where({ origin }).orderBy('size', 'desc').first();
      return row && { origin, size: Number(row.size), rootHash: bytes(row.root_hash), note: row.note, cosignature: row.cosignature };
    },

    async saveCosigned(checkpoint: CosignedCheckpoint): Promise<void> {
      const { origin, size, rootHash, note, cosignature } = checkpoint;
      await db('witness_checkpoints')
        .insert({ origin, size, root_hash: rootHash, note, cosignature })
        .onConflict(['origin', 'size'])
        .ignore();
    },

    /** Stores the refusal; false when this offered checkpoint was refused before (so it is alerted once). */
    async saveRefusal(refusal: Refusal): Promise<boolean> {
      const inserted = await db('witness_refusals')
        .insert({
          origin: refusal.origin,
          reason: refusal.reason,
          cosigned_note: refusal.cosignedNote,
          offered_note: refusal.offeredNote,
          offered_body: refusal.offeredBody,
          proof: refusal.proof === null ? null : JSON.stringify(refusal.proof),
          refused_at: refusal.refusedAt,
        })
        .onConflict(['origin', 'offered_body'])
        .ignore()
        .returning('id');
      return inserted.length > 0;
    },

    async refusals(
      origin: string,
    ): Promise<{ reason: RefusalReason; offered_note: string; cosigned_note: string; proof: string[] | null; refused_at: string }[]> {
      const rows = await db('witness_refusals').where({ origin }).orderBy('id');
      return rows.map((row) => ({
        ...row,
        refused_at: new Date(row.refused_at).toISOString(),
        proof: typeof row.proof === 'string' ? JSON.parse(row.proof) : row.proof,
      }));
    },
  };
}
