import type { Principal } from '@platform/auth';
import type { Knex } from '@platform/db';
import { problems } from '@platform/http';
import { recordClaimChange } from '../../shared/claim-change';
import { lockClaim } from '../../shared/claim-state';
import { DECIDE_SCOPE, isClosed } from '../../shared/stage-machine';
import { adjusterDirectory } from './adjuster-directory';
import { claimAssigneeChanged } from './assignment-events';
import type { AssigneeRequest, AssigneeResponse } from './assignment-schemas';
import { assignmentStore } from './assignment-store';

/**
 * Who works a claim. `claims:decide` may assign anyone or release anyone; `claims:write` alone may only
 * take an unassigned claim or give up their own. The claim row is locked, so of two adjusters taking the
 * same claim one wins and the other gets 409 (already assigned, or a stale `If-Match`).
 */
export const assignmentService = (exchange: string) => (db: Knex) => ({
  async setAssignee(
    claimId: string,
    request: AssigneeRequest,
    expectedVersion: number | undefined,
    caller: Principal,
  ): Promise<AssigneeResponse> {
    const claim = await lockClaim(db, claimId);
    const previous = claim.assignee;
    const next = request.assignee;
    if (!caller.scopes.has(DECIDE_SCOPE)) {
      const takes = next === caller.sub;
      const releasesOwn = next === null && previous === caller.sub;
      if (!takes && !releasesOwn) {
        throw problems.forbidden(
          `Assigning a claim to someone else or releasing another adjuster's claim requires the ${DECIDE_SCOPE} scope`,
        );
      }
    }
    if (expectedVersion !== undefined && expectedVersion !== claim.version) {
      throw problems.conflict('The claim changed since you read it (If-Match names an older version); read it again', {
        current_version: claim.version,
      });
    }
    if (isClosed(claim.stage)) throw problems.conflict('The claim is closed; reopen it before assigning it');
    if (next === previous) return { claim_id: claim.claim_id, assignee: next, previous_assignee: previous, version: claim.version };
    if (!caller.scopes.has(DECIDE_SCOPE) && previous !== null && next !== null) {
      throw problems.conflict('The claim is already assigned to another adjuster');
    }
    const version = await assignmentStore(db).setAssignee(claim.claim_id, next);
    if (next !== null) await adjusterDirectory(db).saw(next);
    const change = next === null ? 'released' : previous === null ? 'assigned' : 'reassigned';
    await recordClaimChange(db, exchange, {
      claimId: claim.claim_id,
      event: claimAssigneeChanged,
      actor: caller.sub,
      reason: [
        change === 'released'
          ? `Released by ${previous}`
          : `${change === 'assigned' ? 'Assigned' : `Reassigned from ${previous}`} to ${next}`,
        request.reason,
      ]
        .filter(Boolean)
        .join(': '),
      data: { change, previous_assignee: previous, assignee: next },
    });
    return { claim_id: claim.claim_id, assignee: next, previous_assignee: previous, version };
  },
});
