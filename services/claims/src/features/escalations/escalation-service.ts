import { claimStore } from '../../shared/claim-store';
import type { Knex } from '@platform/db';
import { problems } from '@platform/http';
import { recordClaimChange } from '../../shared/claim-change';
import { claimEscalationDecided } from './escalations-events';
import { isUuid, lockClaim } from '../../shared/claim-state';
import { isClosed, stageAfterDecision } from '../../shared/stage-machine';
import type { EscalationDecisionRequest } from './escalation-schemas';
import type { Escalation } from './escalation-schemas';
import { escalationStore } from './escalation-store';

/** A human settles what triage could not: final, recorded with its rationale and decider. */
export function escalationService(exchange: string) {
  return (db: Knex) => ({
    async decide(claimId: string, escalationId: string, request: EscalationDecisionRequest, actor: string): Promise<Escalation> {
      const claim = await lockClaim(db, claimId);
      const escalation = isUuid(escalationId) ? await escalationStore(db).lock(claim.claim_id, escalationId) : undefined;
      if (!escalation) throw problems.notFound('No such escalation on this claim');
      if (escalation.status !== 'open') {
        throw problems.conflict(
          `The escalation was already decided (${escalation.decision} by ${escalation.decided_by}); decisions are final`,
        );
      }
      if (isClosed(claim.stage)) throw problems.conflict('The claim is closed');
      if (request.decision === 'accept' && request.queue !== undefined && request.queue !== escalation.proposed_queue) {
        throw problems.unprocessable(
          `accept takes the proposed queue ${escalation.proposed_queue}; use override to route to ${request.queue}`,
          {
            errors: [{ pointer: '/queue', message: `must equal the proposed queue ${escalation.proposed_queue} when accepting` }],
          },
        );
      }
      const queue = request.decision === 'accept' ? escalation.proposed_queue : request.queue!;
      const rationale = request.rationale.trim();
      const decided = await escalationStore(db).recordDecision(escalation.escalation_id, {
        decision: request.decision,
        queue,
        rationale,
        decided_by: actor,
      });
      const stage = stageAfterDecision(claim.stage);
      await claimStore(db).updateState(claim.claim_id, { stage, queue });
      await recordClaimChange(db, exchange, {
        claimId: claim.claim_id,
        event: claimEscalationDecided,
        actor,
        reason: rationale,
        data: {
          escalation_id: escalation.escalation_id,
          triage_id: escalation.triage_id,
          decision: request.decision,
          proposed_queue: escalation.proposed_queue,
          queue,
          gates: escalation.gates.map((g) => g.gate),
          stage,
        },
      });
      return decided;
    },
  });
}
