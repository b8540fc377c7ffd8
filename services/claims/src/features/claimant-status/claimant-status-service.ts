import type { Knex } from '@platform/db';
import { scanNotice } from '../attachments/attachments-service';
import { attachmentsStore } from '../attachments/attachments-store';
import { decodeCursor, encodeCursor } from '../claims-list/claim-cursor';
import { statusUpdatesStore } from '../status-updates/status-updates-store';
import { claimOpenedBy } from '../../shared/claimant-access';
import type { ClaimantStatus, ClaimantStatusQuery } from './claimant-status-schemas';

/** A claimant's view of their claim: the claimant-safe projection, nothing internal. */
export const claimantStatusService = () => (db: Knex) => ({
  async status(claimId: string, token: string, query: ClaimantStatusQuery): Promise<ClaimantStatus> {
    const claim = await claimOpenedBy(db, claimId, token);
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const limit = query.limit ?? 25;
    const updates = statusUpdatesStore(db);
    const page = await updates.historyPage(claim.claim_id, after, limit + 1);
    const latest = await updates.latestOfClaim(claim.claim_id);
    const attachments = await attachmentsStore(db).listOfClaim(claim.claim_id);
    return {
      claim_id: claim.claim_id,
      claim_number: claim.claim_number,
      stage: claim.stage,
      received_at: claim.received_at,
      required_documents: claim.required_documents,
      attachments: attachments.map(({ attachment_id, filename, content_type, size_bytes, document_type, received_at, scan_status }) => ({
        attachment_id,
        filename,
        content_type,
        size_bytes,
        document_type,
        received_at,
        scan_status,
        scan_notice: scanNotice(scan_status),
      })),
      latest_update: latest?.update ?? null,
      history: {
        items: page.slice(0, limit).map(({ stored }) => ({
          update_id: stored.update_id,
          sent_at: stored.created_at,
          language_fallback_from: stored.language_fallback_from,
          update: stored.update,
        })),
        next_cursor: page.length > limit ? encodeCursor(page[limit - 1].position) : null,
      },
    };
  },
});
