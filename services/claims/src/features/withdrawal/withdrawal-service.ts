import type { Knex } from '@platform/db';
import { problems } from '@platform/http';
import { recordClaimChange } from '../../shared/claim-change';
import { claimOpenedBy } from '../../shared/claimant-access';
import { claimantMessages } from '../../shared/claimant-messages';
import type { ClaimantKeys } from '../claimants';
import { deliveriesStore } from '../delivery';
import type { StatusUpdateContact } from '../../shared/status-update';
import { statusUpdatesStore } from '../status-updates';
import { claimWithdrawn } from './withdrawal-events';
import type { Withdrawal } from './withdrawal-schemas';
import { withdrawalStore } from './withdrawal-store';

/** Stages from which a claimant may no longer withdraw: the claim is being paid out, or already closed. */
const TOO_LATE = new Set(['settlement', 'closed']);

/**
 * A claimant withdraws their claim (run it with `transactional`): the claim closes with reason
 * `withdrawn`, a status update in the claim's language tells them so (queued on their channel), and the
 * timeline entry and `claim.withdrawn` event commit with it.
 */
export const withdrawalService = (settings: { exchange: string; contact: StatusUpdateContact; keys: ClaimantKeys }) => (db: Knex) => ({
  async withdraw(claimId: string, token: string): Promise<Withdrawal> {
    const claim = await claimOpenedBy(db, claimId, token, { forUpdate: true });
    if (TOO_LATE.has(claim.stage)) {
      throw problems.conflict(
        claim.stage === 'closed'
          ? 'The claim is already closed'
          : 'The claim is in settlement and can no longer be withdrawn; contact your claims specialist',
      );
    }
    const messages = claimantMessages(claim.language);
    const stored = await statusUpdatesStore(db, await settings.keys.keyFor(claim.claimant_id, db)).insert({
      claim_id: claim.claim_id,
      channel: claim.preferred_channel,
      stage: 'closed',
      what_happened: messages.format('withdrawalWhatHappened', { claimNumber: claim.claim_number }),
      what_happens_next: messages.format('withdrawalWhatHappensNext'),
      what_we_need_from_you: null,
      expected_next_update_by: null,
      cta: null,
      contact: settings.contact,
      portal_url: null,
      language: messages.language,
      language_fallback_from: messages.fallbackFrom,
      created_by: 'claimant',
      closing_reason: 'withdrawn',
    });
    await withdrawalStore(db).closeAsWithdrawn(claim.claim_id);
    await deliveriesStore(db).queue(stored);
    await recordClaimChange(db, settings.exchange, {
      claimId: claim.claim_id,
      event: claimWithdrawn,
      actor: 'claimant',
      reason: `Withdrawn by the claimant in ${claim.stage}`,
      data: { previous_stage: claim.stage, stage: 'closed', closing_reason: 'withdrawn', update_id: stored.update_id },
    });
    return {
      claim_id: claim.claim_id,
      claim_number: claim.claim_number,
      stage: 'closed',
      closing_reason: 'withdrawn',
      withdrawn_at: stored.created_at,
      status: stored.update,
    };
  },
});
