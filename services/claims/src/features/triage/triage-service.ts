import { claimStore, openClaim } from '../../shared/claim-store';
import type { ClaimantKeys } from '../claimants';
import { randomUUID } from 'node:crypto';
import { canonicalSha256 } from '@platform/canonical-json';
import type { Knex } from '@platform/db';
import { problems } from '@platform/http';
import { escalationStore } from '../escalations';
import { recordClaimChange } from '../../shared/claim-change';
import { claimTriaged } from './triage-events';
import { lockClaim } from '../../shared/claim-state';
import { isClosed, stageAfterTriage } from '../../shared/stage-machine';
import { assertPolicyShape, deriveFacts, evaluatePolicy, triagePolicyStore } from '../triage-policy';
import type { TriageResult } from './triage-schemas';
import { triageStore } from './triage-store';

/**
 * Runs the active triage policy over a claim. Automation drafts, humans decide: with no gate the claim
 * is routed to the policy's queue (and moves from intake/triage to assigned); with any gate it stays in
 * (or moves to) triage with an open escalation that only a claims:decide caller can settle.
 */
export function triageService(exchange: string, keys: ClaimantKeys) {
  return (db: Knex) => ({
    async runTriage(claimId: string, actor: string): Promise<TriageResult> {
      const locked = await lockClaim(db, claimId);
      // the description's words are facts of the policy (litigation, vulnerability): read opened
      const claim = openClaim(locked, await keys.keyFor(locked.claimant_id, db));
      if (isClosed(claim.stage)) throw problems.conflict('The claim is closed; it cannot be triaged');
      const open = await escalationStore(db).findOpen(claim.claim_id);
      if (open) {
        throw problems.conflict('The claim has an open escalation; it must be decided before triage runs again', {
          escalation_id: open.escalation_id,
        });
      }
      const policy = await triagePolicyStore(db).activePolicy();
      if (!policy) throw problems.serviceUnavailable('No triage policy is active', 60);
      assertPolicyShape(policy);

      const facts = deriveFacts(
        {
          loss_type: claim.loss.type,
          loss_date: claim.loss.date,
          description: claim.loss.description,
          injuries: claim.injuries ?? false,
          police_report_number: claim.police_report_number,
          estimated_amount: claim.estimated_amount?.amount ?? null,
          received_at: new Date(claim.received_at),
        },
        await triageStore(db).claimHistory(claim, policy.parameters),
        policy.parameters,
      );
      const verdict = await evaluatePolicy(policy, facts);
      const gated = verdict.escalation_gates.length > 0;
      const triageId = randomUUID();
      const escalationId = gated ? randomUUID() : null;

      const result = await triageStore(db).insertRun({
        triage_id: triageId,
        claim_id: claim.claim_id,
        policy_version: policy.version,
        input_digest: canonicalSha256({ policy_version: policy.version, inputs: facts }),
        inputs: facts,
        ...verdict,
        outcome: gated ? 'pending_human_decision' : 'auto_routed',
        escalation_id: escalationId,
        ran_by: actor,
      });
      if (escalationId) {
        await escalationStore(db).insert({
          id: escalationId,
          claim_id: claim.claim_id,
          triage_id: triageId,
          gates: verdict.escalation_gates,
          proposed_queue: verdict.queue,
        });
      }
      const stage = stageAfterTriage(claim.stage, gated);
      await claimStore(db).updateState(claim.claim_id, gated ? { stage } : { stage, queue: verdict.queue });

      await recordClaimChange(db, exchange, {
        claimId: claim.claim_id,
        event: claimTriaged,
        actor,
        reason: gated
          ? `Triage policy ${policy.version} raised ${verdict.escalation_gates.map((g) => g.gate).join(', ')}: a human decides the queue`
          : `Triage policy ${policy.version} routed the claim to ${verdict.queue}`,
        data: {
          triage_id: triageId,
          policy_version: policy.version,
          score: verdict.score,
          queue: verdict.queue,
          outcome: result.outcome,
          gates: verdict.escalation_gates.map((g) => g.gate),
          escalation_id: escalationId,
          stage,
        },
      });
      return result;
    },
  });
}
