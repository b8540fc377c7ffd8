import type { Knex } from '@platform/db';
import type { Claim } from '../../shared/claim-schemas';
import type { TriageResult } from './triage-schemas';
import type { ClaimHistory, TriageFacts, TriagePolicyParameters } from '../triage-policy';

export interface TriageRunRecord extends Omit<TriageResult, 'ran_at'> {
  input_digest: string;
  inputs: TriageFacts;
}

/** A triage_runs row: the id column is `id`, `ran_at` a Date. */
interface TriageRunRow extends Omit<TriageResult, 'triage_id' | 'ran_at'> {
  id: string;
  ran_at: Date;
}

function toResult(row: TriageRunRow): TriageResult {
  return {
    triage_id: row.id,
    claim_id: row.claim_id,
    policy_version: row.policy_version,
    ran_at: new Date(row.ran_at).toISOString(),
    ran_by: row.ran_by,
    score: row.score,
    queue: row.queue,
    rule_hits: row.rule_hits,
    escalation_gates: row.escalation_gates,
    outcome: row.outcome,
    escalation_id: row.escalation_id,
  };
}

export function triageStore(db: Knex) {
  return {
    /** The claim's neighbours: other claims on its policy nearby in time, other policies sharing its contact. */
    async claimHistory(claim: Claim, parameters: TriagePolicyParameters): Promise<ClaimHistory> {
      const policyWindow = `${parameters.same_policy_window_days} days`;
      const contactWindow = `${parameters.shared_contact_window_days} days`;
      const [samePolicy] = await db('claims')
        .count<{ count: string }[]>('* as count')
        .where('policy_number', claim.policy_number)
        .whereNot('id', claim.claim_id)
        .whereRaw('received_at > ?::timestamptz - ?::interval AND received_at < ?::timestamptz + ?::interval', [
          claim.received_at,
          policyWindow,
          claim.received_at,
          policyWindow,
        ]);
      // the claimant's other claims: matched at intake by the blind index of their email, else phone
      const [row] = await db('claims')
        .countDistinct<{ count: string }[]>('policy_number as count')
        .where('claimant_id', claim.claimant_id)
        .whereNot('policy_number', claim.policy_number)
        .whereRaw('received_at > ?::timestamptz - ?::interval AND received_at < ?::timestamptz + ?::interval', [
          claim.received_at,
          contactWindow,
          claim.received_at,
          contactWindow,
        ]);
      const sharingContact = Number(row.count);
      return { recent_claims_on_policy: Number(samePolicy.count), other_policies_sharing_contact: sharingContact };
    },

    async insertRun(run: TriageRunRecord): Promise<TriageResult> {
      const [row] = await db('triage_runs')
        .insert({
          id: run.triage_id,
          claim_id: run.claim_id,
          policy_version: run.policy_version,
          input_digest: run.input_digest,
          inputs: JSON.stringify(run.inputs),
          score: run.score,
          queue: run.queue,
          rule_hits: JSON.stringify(run.rule_hits),
          escalation_gates: JSON.stringify(run.escalation_gates),
          outcome: run.outcome,
          escalation_id: run.escalation_id,
          ran_by: run.ran_by,
        })
        .returning('*');
      return toResult(row);
    },

    /** The claim's latest triage run, or null. */
    async latestRun(claimId: string): Promise<TriageResult | null> {
      const row = await db('triage_runs')
        .where({ claim_id: claimId })
        .orderBy([
          { column: 'ran_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .first();
      return row ? toResult(row) : null;
    },
  };
}
