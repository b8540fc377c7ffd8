import { randomUUID } from 'node:crypto';
import type { Knex } from '@platform/db';
import type { ExportStatus } from './exports-schemas';

export interface ExportRow {
  id: string;
  claimant_id: string;
  requested_by: string;
  via_claim_id: string | null;
  include_internal_notes: boolean;
  status: ExportStatus;
  claim_ids: string[] | null;
  progress_done: number;
  progress_total: number | null;
  attempts: number;
  archive_sha256: string | null;
  /** Where the archive's encrypted bytes are stored; null when stored plain at `archive_sha256`. */
  archive_stored_sha256: string | null;
  archive_size: string | number | null;
  failure: string | null;
  download_token_hash: string | null;
  download_expires_at: Date | null;
  downloaded_at: Date | null;
  created_at: Date;
  completed_at: Date | null;
}

/** The unique index that allows one open (queued or building) claimant request per claimant. */
export const ONE_OPEN_REQUEST_INDEX = 'claimant_exports_one_open_request';

export function exportsStore(db: Knex) {
  return {
    async insert(request: {
      claimantId: string;
      requestedBy: string;
      viaClaimId: string | null;
      includeInternalNotes: boolean;
    }): Promise<ExportRow> {
      const [row] = await db('claimant_exports')
        .insert({
          id: randomUUID(),
          claimant_id: request.claimantId,
          requested_by: request.requestedBy,
          via_claim_id: request.viaClaimId,
          include_internal_notes: request.includeInternalNotes,
        })
        .returning('*');
      return row as ExportRow;
    },

    async find(exportId: string, options: { forUpdate?: boolean } = {}): Promise<ExportRow | undefined> {
      const query = db('claimant_exports').where({ id: exportId });
      return (await (options.forUpdate ? query.forUpdate() : query).first()) as ExportRow | undefined;
    },

    /**
     * Leases the oldest export due to build: queued, or building under a lease that ran out (its process
     * died). The lease is pushed `leaseSeconds` ahead and the attempt counted in the same statement.
     */
    async leaseNext(leaseSeconds: number): Promise<ExportRow | undefined> {
      const { rows } = await db.raw<{ rows: ExportRow[] }>(
        `UPDATE claimant_exports SET status = 'building', attempts = attempts + 1,
                lease_until = clock_timestamp() + make_interval(secs => ?)
         WHERE id = (SELECT id FROM claimant_exports
                     WHERE status = 'queued' OR (status = 'building' AND lease_until < clock_timestamp())
                     ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
         RETURNING *`,
        [leaseSeconds],
      );
      return rows[0];
    },

    /** Fixes what a build holds and starts its count again (a retried build starts over). */
    async plan(exportId: string, claimIds: string[], total: number): Promise<void> {
      await db('claimant_exports')
        .where({ id: exportId })
        .update({ claim_ids: JSON.stringify(claimIds), progress_total: total, progress_done: 0 });
    },

    /** Counts parts written and extends the lease, so a long build is not taken over while it progresses. */
    async progress(exportId: string, done: number, leaseSeconds: number): Promise<void> {
      await db('claimant_exports')
        .where({ id: exportId })
        .update({ progress_done: done, lease_until: db.raw('clock_timestamp() + make_interval(secs => ?)', [leaseSeconds]) });
    },

    /** Marks a build ready with its archive; false when it is no longer building (the claimant was erased meanwhile). */
    async markReady(exportId: string, archive: { sha256: string; size: number; storedSha256?: string | null }): Promise<boolean> {
      const marked = await db('claimant_exports')
        .where({ id: exportId, status: 'building' })
        .update({
          status: 'ready',
          archive_sha256: archive.sha256,
          archive_stored_sha256: archive.storedSha256 ?? null,
          archive_size: archive.size,
          progress_done: db.ref('progress_total'),
          lease_until: null,
          completed_at: db.raw('clock_timestamp()'),
        });
      return marked === 1;
    },

    async markFailed(exportId: string, failure: string): Promise<void> {
      await db('claimant_exports')
        .where({ id: exportId })
        .update({ status: 'failed', failure, lease_until: null, completed_at: db.raw('clock_timestamp()') });
    },

    /** A claimant's own export, asked from the portal of `claimId`. */
    async ofClaimantRequest(exportId: string, claimId: string): Promise<ExportRow | undefined> {
      return (await db('claimant_exports').where({ id: exportId, via_claim_id: claimId }).first()) as ExportRow | undefined;
    },

    /**
     * For erasure, on its transaction: an open build of the claimant's fails (it would read tombstones) and no
     * download token opens any of their exports (the archives are removed from storage after the commit).
     */
    async closeForErasure(claimantId: string): Promise<void> {
      await db('claimant_exports')
        .where({ claimant_id: claimantId })
        .whereIn('status', ['queued', 'building'])
        .update({ status: 'failed', failure: 'The claimant was erased', lease_until: null, completed_at: db.raw('clock_timestamp()') });
      await db('claimant_exports').where({ claimant_id: claimantId }).update({ download_token_hash: null, download_expires_at: null });
    },

    /** Where the archives of a claimant's exports are stored (their content addresses). */
    async archivesOf(claimantId: string): Promise<string[]> {
      const rows = (await db('claimant_exports')
        .where({ claimant_id: claimantId })
        .whereNotNull('archive_sha256')
        .select(db.raw('DISTINCT coalesce(archive_stored_sha256, archive_sha256) AS address'))) as { address: string }[];
      return rows.map((row) => row.address);
    },

    /** Spends the download token: true when this call did (a second download with it finds it spent). */
    async spendDownloadToken(exportId: string): Promise<boolean> {
      const spent = await db('claimant_exports')
        .where({ id: exportId })
        .whereNull('downloaded_at')
        .whereRaw('download_expires_at > clock_timestamp()')
        .update({ downloaded_at: db.raw('clock_timestamp()') });
      return spent === 1;
    },
  };
}
