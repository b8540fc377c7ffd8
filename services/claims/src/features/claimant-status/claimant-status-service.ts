import type { Knex } from '@platform/db';
import { UUID_PATTERN } from '@platform/http';
import { claimantPayments } from '../financials';
import { scanNotice } from '../attachments';
import { decodeCursor, encodeCursor } from '../claims-list';
import { openedBy } from '../../shared/claimant-access';
import { claimantMessages } from '../../shared/claimant-messages';
import type { ClaimantStatus, ClaimantStatusQuery } from './claimant-status-schemas';
import { claimantStatusStore } from './claimant-status-store';

/**
 * A claimant's view of their claim: the claimant-safe projection, nothing internal. The contact person is
 * the claim's assignee, else `teamContactName` (CLAIMS_CONTACT_NAME), else "the claims team" in the claim's language.
 */
export const claimantStatusService = (teamContactName: string | undefined) => (db: Knex) => ({
  async status(claimId: string, token: string, query: ClaimantStatusQuery): Promise<ClaimantStatus> {
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const read = UUID_PATTERN.test(claimId) ? await claimantStatusStore(db).read(claimId, after, query.limit ?? 25) : undefined;
    const { status, next_position } = openedBy(read, token);
    const { assignee, language, ...view } = status;
    return {
      ...view,
      contact_name: assignee ?? teamContactName ?? claimantMessages(language).format('teamContactName'),
      attachments: status.attachments.map((attachment) => ({ ...attachment, scan_notice: scanNotice(attachment.scan_status) })),
      history: { items: status.history.items, next_cursor: next_position ? encodeCursor(next_position) : null },
      payments: await claimantPayments(db, status.claim_id),
    };
  },
});
