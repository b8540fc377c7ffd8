import { claimStore } from '../../shared/claim-store';
import type { Knex } from '@platform/db';
import { problems } from '@platform/http';
import type { ClaimantKeys } from '../claimants';
import { deliveriesStore } from '../delivery';
import { settleReservesOnClosing } from '../financials';
import { escalationStore } from '../escalations';
import { recordClaimChange } from '../../shared/claim-change';
import { reopeningReasonContext, sealField } from '../../shared/claimant-fields';
import { claimStatusUpdated, claimClosed } from './status-updates-events';
import { lockClaim, readClaim } from '../../shared/claim-state';
import type { ClosingReason } from '../../shared/claim-vocabulary';
import { DECIDE_SCOPE, WRITE_SCOPE, judgeTransition } from '../../shared/stage-machine';
import { normaliseLanguageTag } from '../../shared/language-tag';
import { isTodayOrLater, nextUpdateDueAt } from '../../shared/dates';
import type { Closing, ClosingRequest, StatusUpdateRequest } from './status-updates-schemas';
import { statusUpdatesStore, type StoredStatusUpdate } from './status-updates-store';

export interface Caller {
  sub: string;
  scopes: ReadonlySet<string>;
}

/** Checks what the schema cannot: the path/body claim id, the promised date, the language tag. */
/**
 * Links are https, except links on the platform's own origin (PUBLIC_BASE_URL, https in production), which are
 * taken back whatever their scheme, so a development platform's own portal link can be sent (CONTRACT §3).
 */
function checkLinks(request: StatusUpdateRequest, ownOrigin: string): void {
  const links = [
    { pointer: '/cta/url', url: request.cta?.url },
    { pointer: '/portal_url', url: request.portal_url },
  ];
  const refused = links.filter(({ url }) => url != null && !url.startsWith('https://') && new URL(url).origin !== ownOrigin);
  if (refused.length > 0)
    throw problems.badRequest(
      `Request body: ${refused.map(({ pointer }) => pointer.slice(1).replace('/', '.')).join(' and ')} must be an https link`,
      refused.map(({ pointer }) => ({ pointer, message: "must be an https link (or a link on this platform's own address)" })),
    );
}

function checkRequest(claimId: string, request: StatusUpdateRequest, timeZone: string | null): { language: string | null } {
  if (request.claim_id !== undefined && request.claim_id.toLowerCase() !== claimId.toLowerCase()) {
    throw problems.unprocessable('claim_id in the body names another claim than the path', {
      errors: [{ pointer: '/claim_id', message: 'must equal the claim id of the path' }],
    });
  }
  if (request.expected_next_update_by != null && !isTodayOrLater(request.expected_next_update_by, new Date(), timeZone)) {
    throw problems.badRequest(
      "expected_next_update_by must be a real date, today or later in the claim's time zone (UTC when it has none)",
      [{ pointer: '/expected_next_update_by', message: 'must be today or later' }],
    );
  }
  let language: string | null = null;
  if (request.language != null) {
    const normalised = normaliseLanguageTag(request.language);
    if (!normalised)
      throw problems.badRequest('language must be a BCP 47 language tag', [
        { pointer: '/language', message: 'is not a BCP 47 language tag' },
      ]);
    language = normalised;
  }
  return { language };
}

/** A denial names its rationale (the schema makes the reason and the update's stage right). */
function checkClosing(closing: ClosingRequest): void {
  if (closing.reason === 'denied' && closing.rationale === undefined)
    throw problems.badRequest('rationale is required for a denial', [{ pointer: '/rationale', message: 'is required for a denial' }]);
}

/** How a claim closes: its reason and, for the internal record only, the rationale. */
interface ClosingFacts {
  reason: ClosingReason;
  rationale: string | null;
}

/**
 * Posts a status update: the claim's stage follows the lifecycle state machine, the update is stored
 * with its adequacy computed, queued for delivery on its channel, the claim's promise of the next
 * update (`next_update_due`) replaced, and `claim.status_updated` published — in one transaction. An open
 * claim always keeps a promise: `defaultCadenceDays` out when the update names no date.
 */
export function statusUpdateService(exchange: string, defaultCadenceDays: number, publicBaseUrl: string, keys: ClaimantKeys) {
  const ownOrigin = new URL(publicBaseUrl).origin;
  return (db: Knex) => {
    /** The claim's updates, their texts sealed with its claimant's data key. */
    const statusUpdatesOf = async (claim: { claimant_id: string }) => statusUpdatesStore(db, await keys.keyFor(claim.claimant_id, db));

    /** The one way a status update is stored, a closing's included: `closing` is given exactly when it closes. */
    async function apply(claimId: string, request: StatusUpdateRequest, caller: Caller, closing?: ClosingFacts) {
      const claim = await lockClaim(db, claimId);
      checkLinks(request, ownOrigin);
      const { language } = checkRequest(claimId, request, claim.time_zone);
      if (claim.stage === 'closed' && request.stage === 'closed') throw problems.conflict('The claim is already closed');
      if (request.stage === 'closed' && !closing) {
        throw problems.unprocessable(
          `A claim closes with its reason: POST /api/claims/claims/${claim.claim_id}/closing with { reason, rationale?, status_update }`,
          { errors: [{ pointer: '/stage', message: 'closing is its own operation (POST …/closing)' }] },
        );
      }
      const verdict = judgeTransition(claim.stage, request.stage);
      if (!verdict.allowed) throw problems.conflict(verdict.reason);
      if (verdict.needsDecide && !caller.scopes.has(DECIDE_SCOPE)) {
        const what = verdict.kind === 'reopen' ? 'Reopening a closed claim' : `Moving a claim into ${request.stage}`;
        throw problems.forbidden(`${what} requires the ${DECIDE_SCOPE} scope`);
      }
      // claims:decide grants settlement, closing and reopening on its own (CONTRACT §2); every other update needs claims:write.
      if (!verdict.needsDecide && !caller.scopes.has(WRITE_SCOPE)) {
        throw problems.forbidden(`A status update into ${request.stage} requires the ${WRITE_SCOPE} scope`);
      }
      const leavesTriage = claim.stage === 'triage' && request.stage !== 'triage';
      if (leavesTriage || (request.stage === 'closed' && claim.stage !== 'closed')) {
        const open = await escalationStore(db).findOpen(claim.claim_id);
        if (open) {
          throw problems.conflict(
            `Triage raised an escalation that a claims:decide caller must decide before the claim ${leavesTriage ? 'leaves triage' : 'is closed'}`,
            {
              escalation_id: open.escalation_id,
            },
          );
        }
      }
      if (request.channel === 'email' && !claim.claimant.email)
        throw problems.unprocessable('The claimant gave no email address; choose another channel');
      if (request.channel === 'sms' && !claim.claimant.phone)
        throw problems.unprocessable('The claimant gave no phone number; choose another channel');

      const stored = await (
        await statusUpdatesOf(claim)
      ).insert({
        claim_id: claim.claim_id,
        channel: request.channel,
        stage: request.stage,
        what_happened: request.what_happened,
        what_happens_next: request.what_happens_next,
        what_we_need_from_you: request.what_we_need_from_you ?? null,
        expected_next_update_by: request.expected_next_update_by ?? null,
        cta: request.cta ?? null,
        contact: request.contact ?? null,
        portal_url: request.portal_url ?? null,
        language,
        created_by: caller.sub,
        closing_reason: closing?.reason ?? null,
      });
      const nextUpdateDue =
        request.stage === 'closed' ? null : nextUpdateDueAt(stored.update.expected_next_update_by, claim.time_zone, defaultCadenceDays);
      // Closing sets the reason; reopening clears it (the database allows a reason only on a closed claim),
      // while the closing update and its timeline entry keep it.
      await claimStore(db).updateState(claim.claim_id, {
        stage: request.stage,
        next_update_due: nextUpdateDue,
        closing_reason: closing?.reason ?? null,
        closing_rationale: closing?.rationale ?? null,
      });
      await deliveriesStore(db).queue(stored);
      const facts = {
        update_id: stored.update_id,
        previous_stage: claim.stage,
        stage: request.stage,
        transition: verdict.kind,
        channel: request.channel,
        adequacy_score: stored.update.adequacy_score,
        adequacy_missing: stored.update.adequacy_missing,
        expected_next_update_by: stored.update.expected_next_update_by,
      };
      if (verdict.kind === 'reopen') {
        await db('claim_reopenings').insert({
          update_id: stored.update_id,
          claim_id: claim.claim_id,
          closing_reason: claim.closing?.reason ?? null,
          stage: request.stage,
          // what the claimant was told: sealed with their data key like the update's own texts
          reason: sealField(await keys.keyFor(claim.claimant_id, db), request.what_happened, reopeningReasonContext(stored.update_id)),
          reopened_by: caller.sub,
        });
      }
      await recordClaimChange(db, exchange, {
        claimId: claim.claim_id,
        event: claimStatusUpdated,
        actor: caller.sub,
        reason: {
          progress: `Progress update in ${request.stage}`,
          advance: `Moved from ${claim.stage} to ${request.stage}`,
          // the reason told to the claimant stays in claim_reopenings, sealed: the timeline read adds it (listAudit)
          reopen: `Reopened into ${request.stage} by ${caller.sub}`,
        }[verdict.kind],
        data: facts,
      });
      if (closing) {
        const closed = {
          previous_stage: claim.stage,
          stage: 'closed' as const,
          closing_reason: closing.reason,
          update_id: stored.update_id,
        };
        await recordClaimChange(db, exchange, {
          claimId: claim.claim_id,
          event: claimClosed,
          actor: caller.sub,
          reason: `Closed as ${closing.reason}`,
          data: closed,
          // the rationale is free text: the internal timeline keeps it, the event (facts only) does not
          ...(closing.rationale === null ? {} : { timeline: { data: { ...closed, closing_rationale: closing.rationale } } }),
        });
      }
      return stored;
    }

    return {
      post(claimId: string, request: StatusUpdateRequest, caller: Caller): Promise<StoredStatusUpdate> {
        return apply(claimId, request, caller);
      },

      /** Closes the claim with its reason and the ordinary StatusUpdate into `closed` that tells the claimant. */
      async close(claimId: string, request: ClosingRequest, caller: Caller): Promise<{ stored: StoredStatusUpdate; closing: Closing }> {
        checkClosing(request);
        const rationale = request.rationale ?? null;
        const stored = await apply(claimId, request.status_update, caller, { reason: request.reason, rationale });
        // The claim is locked by apply: no payment may await approval, `paid` needs something paid, open reserves go to zero
        await settleReservesOnClosing(db, exchange, stored.update.claim_id, request.reason, caller.sub);
        return {
          stored,
          closing: {
            claim_id: stored.update.claim_id,
            stage: 'closed',
            reason: request.reason,
            rationale,
            closed_at: stored.created_at,
            update_id: stored.update_id,
            status_update: stored.update,
          },
        };
      },

      async get(claimId: string, updateId: string): Promise<StoredStatusUpdate> {
        const claim = await readClaim(db, claimId);
        const found = (await (await statusUpdatesOf(claim)).listOfClaim(claim.claim_id)).find(
          (stored) => stored.update_id === updateId.toLowerCase(),
        );
        if (!found) throw problems.notFound('No such status update on this claim');
        return found;
      },
    };
  };
}
