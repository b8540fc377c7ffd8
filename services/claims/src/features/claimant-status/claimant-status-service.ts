import type { Knex } from '@platform/db';
import { UUID_PATTERN } from '@platform/http';
import { claimantPayments } from '../financials';
import { scanNotice } from '../attachments';
import { decodeCursor, encodeCursor } from '../claims-list';
import { openedBy } from '../../shared/claimant-access';
import { claimantMessages } from '../../shared/claimant-messages';
import { openUpdateTexts } from '../../shared/claimant-fields';
import type { ClaimantKeys } from '../claimants';
import type { ClaimantStatus, ClaimantStatusQuery } from './claimant-status-schemas';
import { claimantStatusStore } from './claimant-status-store';

/**
 * A claimant's view of their claim: the claimant-safe projection, nothing internal. The contact person is
 * the claim's assignee, else `teamContactName` (CLAIMS_CONTACT_NAME), else "the claims team" in the claim's language.
 */
export const claimantStatusService = (teamContactName: string | undefined, keys: ClaimantKeys) => (db: Knex) => ({
  async status(claimId: string, token: string, query: ClaimantStatusQuery): Promise<ClaimantStatus> {
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const read = UUID_PATTERN.test(claimId) ? await claimantStatusStore(db).read(claimId, after, query.limit ?? 25) : undefined;
    const { status, next_position, claimant_id } = openedBy(read, token);
    // the texts are opened after the token check: a wrong token never costs an unwrap
    const key = await keys.keyFor(claimant_id, db);
    const { assignee, language, ...view } = status;
    return {
      ...view,
      latest_update: view.latest_update && openUpdateTexts(key, view.latest_update),
      contact_name: assignee ?? teamContactName ?? claimantMessages(language).format('teamContactName'),
      attachments: status.attachments.map((attachment) => ({ ...attachment, scan_notice: scanNotice(attachment.scan_status) })),
      history: {
        items: status.history.items.map((item) => ({ ...item, update: openUpdateTexts(key, item.update) })),
        next_cursor: next_position ? encodeCursor(next_position) : null,
      },
      payments: await claimantPayments(db, status.claim_id),
    };
  },
});
