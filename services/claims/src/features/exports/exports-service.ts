import type { Readable } from 'node:stream';
import { accessTokenMatches } from '@platform/auth';
import type { Knex } from '@platform/db';
import type { FileStorage } from '@platform/files';
import { HttpProblem, UUID_PATTERN, problems } from '@platform/http';
import { claimOpenedBy } from '../../shared/claimant-access';
import { issueExportDownloadToken, ownExportArchivePath } from '../../shared/export-download-token';
import type { ClaimantKeys } from '../claimants';
import { claimantOfClaim } from './claimant-claims';
import { openExportArchive } from './export-archive';
import type { ClaimantExport, DownloadToken, OwnExport } from './exports-schemas';
import { exportsStore, ONE_OPEN_REQUEST_INDEX, type ExportRow } from './exports-store';

export interface ExportsSettings {
  includeInternalNotes: boolean;
  downloadTokenTtlHours: number;
  storage: FileStorage;
  /** The claimants' data keys, to open an archive stored encrypted. */
  keys: ClaimantKeys;
}

const iso = (value: Date | null) => (value === null ? null : new Date(value).toISOString());

const exportPath = (row: Pick<ExportRow, 'id' | 'claimant_id'>) => `/api/claims/claimants/${row.claimant_id}/exports/${row.id}`;

const progressOf = (row: ExportRow) => ({ done: row.progress_done, total: row.progress_total });

function claimantExportOf(row: ExportRow): ClaimantExport {
  return {
    export_id: row.id,
    claimant_id: row.claimant_id,
    status: row.status,
    progress: progressOf(row),
    requested_by: row.requested_by,
    include_internal_notes: row.include_internal_notes,
    requested_at: iso(row.created_at)!,
    completed_at: iso(row.completed_at),
    archive: row.archive_sha256 === null ? null : { sha256: row.archive_sha256, size_bytes: Number(row.archive_size) },
    failure: row.failure,
    links: { self: exportPath(row), archive: row.status === 'ready' ? `${exportPath(row)}/archive` : null },
  };
}

function ownExportOf(row: ExportRow, delivery: OwnExport['delivery']): OwnExport {
  return {
    export_id: row.id,
    claim_id: row.via_claim_id!,
    status: row.status,
    progress: progressOf(row),
    requested_at: iso(row.created_at)!,
    completed_at: iso(row.completed_at),
    delivery,
  };
}

const isOneOpenRequestViolation = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { constraint?: string }).constraint === ONE_OPEN_REQUEST_INDEX;

const gone = (detail: string) => new HttpProblem(410, 'gone', 'Gone', detail);

/** Subject-access exports: requested by a privacy officer or by the claimant from the portal, built in the background. */
export const exportsService = (settings: ExportsSettings) => (db: Knex) => {
  const store = exportsStore(db);

  async function staffExport(claimantId: string, exportId: string): Promise<ExportRow> {
    const row = UUID_PATTERN.test(exportId) ? await store.find(exportId) : undefined;
    if (!row || row.claimant_id !== claimantId.toLowerCase()) throw problems.notFound('No such export of this claimant');
    return row;
  }

  async function ownExport(claimId: string, token: string, exportId: string) {
    const claim = await claimOpenedBy(db, claimId, token);
    const row = UUID_PATTERN.test(exportId) ? await store.ofClaimantRequest(exportId, claim.claim_id) : undefined;
    if (!row) throw problems.notFound('No such export');
    return { claim, row };
  }

  async function openArchive(row: ExportRow): Promise<{ bytes: Readable; fileName: string; size: number }> {
    const bytes = await openExportArchive(settings.storage, settings.keys, row).catch(() => {
      throw gone('The archive is no longer stored');
    });
    return { bytes, fileName: `export-${row.id}.zip`, size: Number(row.archive_size) };
  }

  return {
    /** A privacy officer asks for everything held about a claimant (404 unknown, 409 erased). */
    async request(claimantId: string, requestedBy: string): Promise<ClaimantExport> {
      const claimant = UUID_PATTERN.test(claimantId)
        ? await db('claimants').where({ id: claimantId }).first<{ erased_at: Date | null } | undefined>('erased_at')
        : undefined;
      if (!claimant) throw problems.notFound('No such claimant');
      if (claimant.erased_at !== null) throw problems.conflict('The claimant was erased: nothing personal is left to export');
      const row = await store.insert({
        claimantId: claimantId.toLowerCase(),
        requestedBy,
        viaClaimId: null,
        includeInternalNotes: settings.includeInternalNotes,
      });
      return claimantExportOf(row);
    },

    async get(claimantId: string, exportId: string): Promise<ClaimantExport> {
      return claimantExportOf(await staffExport(claimantId, exportId));
    },

    /** The ready archive for a privacy officer, and the claims it holds (whose access logs record the download). */
    async archive(claimantId: string, exportId: string) {
      const row = await staffExport(claimantId, exportId);
      if (row.status !== 'ready') throw problems.conflict(`The export is ${row.status}, not ready`, { status: row.status });
      return { ...(await openArchive(row)), claimIds: row.claim_ids ?? [] };
    },

    /** The claimant asks for their own export from the portal: one open (queued or building) request at a time (409). */
    async requestOwn(claimId: string, token: string): Promise<OwnExport> {
      const claim = await claimOpenedBy(db, claimId, token);
      const claimantId = await claimantOfClaim(db, claim.claim_id);
      try {
        const row = await store.insert({
          claimantId,
          requestedBy: 'claimant',
          viaClaimId: claim.claim_id,
          includeInternalNotes: settings.includeInternalNotes,
        });
        return ownExportOf(row, claim.preferred_channel);
      } catch (error) {
        if (isOneOpenRequestViolation(error)) throw problems.conflict('An export you asked for is still being prepared');
        throw error;
      }
    },

    async getOwn(claimId: string, token: string, exportId: string): Promise<OwnExport> {
      const { claim, row } = await ownExport(claimId, token, exportId);
      return ownExportOf(row, claim.preferred_channel);
    },

    /**
     * A one-time download token for a ready export of a claim followed on the portal (its channel). A claim
     * with an email or phone channel gets its link there only (409 here), so the export reaches the contact
     * on record, not whoever holds the claim's token.
     */
    async issuePortalToken(claimId: string, token: string, exportId: string): Promise<DownloadToken> {
      const { claim, row } = await ownExport(claimId, token, exportId);
      if (claim.preferred_channel !== 'portal') {
        throw problems.conflict(
          `The download link is sent to the claim's ${claim.preferred_channel === 'email' ? 'email address' : 'phone'}`,
        );
      }
      const issued = await issueExportDownloadToken(db, row.id, settings.downloadTokenTtlHours);
      if (!issued) throw problems.conflict(`The export is ${row.status}, not ready`, { status: row.status });
      return { download_token: issued.token, expires_at: issued.expiresAt.toISOString(), archive: ownExportArchivePath(row.id) };
    },

    /** The claimant's download with the one-time token: a wrong token is 404, a spent or expired one 410. */
    async downloadOwn(exportId: string, downloadToken: string) {
      const row = UUID_PATTERN.test(exportId) ? await store.find(exportId) : undefined;
      if (!row || row.download_token_hash === null || !accessTokenMatches(downloadToken, row.download_token_hash)) {
        throw problems.notFound('No such export');
      }
      if (!(await store.spendDownloadToken(row.id))) throw gone('This download link was used or has expired; ask for a new export');
      return openArchive(row);
    },
  };
};
