import type { Knex } from '@platform/db';
import type { RetentionDays } from '../retention-policy';
import type { Erasure } from './erasure-schemas';

/** The tombstone a claim's identifying fields become (GET /claims/{id} shows it beside `claimant_erased_at`). */
export const ERASED_CLAIMANT_NAME = 'Erased claimant';
export const ERASED_TEXT = 'Erased';
/** No access token hashes to this (a hash is 64 hex digits): the claimant's links open nothing any more. */
const REVOKED_TOKEN_HASH = 'erased';

/** A claim of a claimant as erasure weighs it. */
export interface ClaimRetention {
  id: string;
  claim_number: string;
  open: boolean;
  on_hold: boolean;
  /** When retention passes: null while the claim is open. */
  retained_until: Date | null;
}

interface ErasureRow {
  id: string;
  claimant_id: string;
  claim_ids: string[];
  legal_basis: Erasure['legal_basis'];
  reason: string;
  erased_by: string;
  erased_at: Date;
  files: string[];
  files_destroyed_at: Date | null;
}

const iso = (value: Date | null) => (value === null ? null : new Date(value).toISOString());

export const erasureOf = (row: ErasureRow): Erasure => ({
  erasure_id: row.id,
  claimant_id: row.claimant_id,
  claim_ids: row.claim_ids,
  legal_basis: row.legal_basis,
  reason: row.reason,
  erased_by: row.erased_by,
  erased_at: iso(row.erased_at)!,
  files_destroyed_at: iso(row.files_destroyed_at),
});

/**
 * Per claim: whether it is open, on hold, and when its retention passes: its closing (the last status update
 * that closed it; a claim closed before updates recorded closings: its last change) plus the policy's days
 * for its closing reason (the longest when it has none).
 */
function claimRetentionSql(db: Knex, days: RetentionDays) {
  const longest = Math.max(days.paid, days.denied, days.withdrawn, days.duplicate);
  return db.raw(
    `c.stage <> 'closed' AS open,
     EXISTS (SELECT 1 FROM legal_holds h WHERE h.claim_id = c.id AND h.released_at IS NULL) AS on_hold,
     CASE WHEN c.stage = 'closed' THEN
       COALESCE((SELECT max(su.created_at) FROM status_updates su WHERE su.claim_id = c.id AND su.stage = 'closed'), c.updated_at)
       + (CASE c.closing_reason WHEN 'paid' THEN ?::integer WHEN 'denied' THEN ?::integer WHEN 'withdrawn' THEN ?::integer WHEN 'duplicate' THEN ?::integer ELSE ?::integer END) * interval '1 day'
     END AS retained_until`,
    [days.paid, days.denied, days.withdrawn, days.duplicate, longest],
  );
}

export function erasureStore(db: Knex) {
  return {
    async claimantExists(claimantId: string): Promise<boolean> {
      return (await db('claimants').where({ id: claimantId }).first('id')) !== undefined;
    },

    /** The claimant's claims, locked until the transaction ends, oldest first. */
    async lockClaimsOf(claimantId: string, days: RetentionDays): Promise<ClaimRetention[]> {
      return db('claims as c')
        .where('c.claimant_id', claimantId)
        .orderBy([{ column: 'c.received_at' }, { column: 'c.id' }])
        .forUpdate()
        .select('c.id', 'c.claim_number', claimRetentionSql(db, days));
    },

    /** Claimants not erased whose every claim is closed, past retention and not on hold (at most `limit`). */
    async dueClaimants(days: RetentionDays, limit: number): Promise<string[]> {
      const rows: { claimant_id: string }[] = await db
        .from(db('claims as c').select('c.claimant_id', claimRetentionSql(db, days)).whereNull('c.claimant_erased_at').as('r'))
        .groupBy('r.claimant_id')
        .havingRaw('bool_and(NOT r.open AND NOT r.on_hold AND r.retained_until <= now())')
        .orderBy('r.claimant_id')
        .limit(limit)
        .select('r.claimant_id');
      return rows.map((row) => row.claimant_id);
    },

    async erasureOf(claimantId: string): Promise<Erasure | undefined> {
      const row: ErasureRow | undefined = await db('claimant_erasures').where({ claimant_id: claimantId }).first();
      return row && erasureOf(row);
    },

    /**
     * Replaces the claims' identifying fields by the tombstone, revokes their access tokens, and blanks what
     * was written to or about the claimant elsewhere (status-update texts, reopening reasons, attachment names,
     * intake retries, adjuster kits, undelivered messages). Returns the SHA-256 of the claims' files.
     */
    async tombstoneClaims(claimIds: string[]): Promise<string[]> {
      await db('claims')
        .whereIn('id', claimIds)
        .update({
          claimant_name: ERASED_CLAIMANT_NAME,
          claimant_email: null,
          claimant_phone: null,
          loss_description: ERASED_TEXT,
          loss_location: null,
          police_report_number: null,
          access_token_hash: REVOKED_TOKEN_HASH,
          // the transaction's time: the claims, the claimant and the erasure record name the same moment
          claimant_erased_at: db.raw('now()'),
        });
      await db('status_updates').whereIn('claim_id', claimIds).update({
        what_happened: ERASED_TEXT,
        what_happens_next: ERASED_TEXT,
        what_we_need_from_you: null,
        cta: null,
        portal_url: null,
      });
      await db('claim_reopenings').whereIn('claim_id', claimIds).update({ reason: ERASED_TEXT });
      await db('deliveries')
        .whereIn('claim_id', claimIds)
        .where({ status: 'pending' })
        .update({ status: 'failed', last_error: 'claimant erased', completed_at: db.raw('clock_timestamp()') });
      await db('deliveries').whereIn('claim_id', claimIds).update({ last_error: null });
      await db('idempotency_keys').whereIn('claim_id', claimIds).delete();
      // the kits' snapshots hold the claimant's data; their hashes stay in the audit log (claim.adjuster_kit_generated)
      await db.raw('SELECT delete_erased_adjuster_kits(?::uuid[])', [claimIds]);
      const files: { sha256: string }[] = await db('attachments')
        .whereIn('claim_id', claimIds)
        .update({ filename: ERASED_TEXT, description: null })
        .returning('sha256');
      return [...new Set(files.map((file) => file.sha256))];
    },

    async forgetClaimant(claimantId: string): Promise<void> {
      await db('claimants')
        .where({ id: claimantId })
        .update({ email_index: null, phone_index: null, erased_at: db.raw('now()') });
    },

    async recordErasure(erasure: Omit<ErasureRow, 'erased_at' | 'files_destroyed_at'>): Promise<Erasure> {
      const [row]: ErasureRow[] = await db('claimant_erasures')
        .insert({
          ...erasure,
          claim_ids: JSON.stringify(erasure.claim_ids),
          files: JSON.stringify(erasure.files),
          erased_at: db.raw('now()'),
        })
        .returning('*');
      return erasureOf(row);
    },

    /** Erasures whose files are not yet gone from storage, oldest first. */
    async filesPending(limit: number, erasureId?: string): Promise<{ id: string; claimant_id: string; claim_ids: string[] }[]> {
      return db('claimant_erasures')
        .whereNull('files_destroyed_at')
        .modify((query) => {
          if (erasureId !== undefined) query.where({ id: erasureId });
        })
        .orderBy('erased_at')
        .limit(limit)
        .select('id', 'claimant_id', 'claim_ids');
    },

    async markFilesDestroyed(erasureId: string): Promise<void> {
      await db('claimant_erasures')
        .where({ id: erasureId })
        .update({ files_destroyed_at: db.raw('clock_timestamp()') });
    },
  };
}
