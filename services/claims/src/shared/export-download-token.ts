import { generateAccessToken, hashAccessToken } from '@platform/auth';
import type { Knex } from '@platform/db';

/** Where a claimant downloads their export with its one-time token (`Authorization: Bearer`). */
export const ownExportArchivePath = (exportId: string) => `/api/claims/public/exports/${exportId}/archive`;

/**
 * A fresh one-time download token for a ready export: its hash replaces any earlier one (which stops
 * working) and it expires `ttlHours` from now. Undefined when the export is not ready.
 */
export async function issueExportDownloadToken(
  db: Knex,
  exportId: string,
  ttlHours: number,
): Promise<{ token: string; expiresAt: Date } | undefined> {
  const token = generateAccessToken();
  const [row] = await db('claimant_exports')
    .where({ id: exportId, status: 'ready' })
    .update({
      download_token_hash: hashAccessToken(token),
      download_expires_at: db.raw('clock_timestamp() + make_interval(hours => ?)', [ttlHours]),
      downloaded_at: null,
    })
    .returning('download_expires_at');
  return row ? { token, expiresAt: new Date(row.download_expires_at) } : undefined;
}
