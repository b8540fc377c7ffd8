import type { Claim } from '../../shared/claim-schemas';
import type { Escalation } from '../escalations';
import type { TriageResult } from '../triage';
import type { Gate } from '../triage-policy';

/** A suggestion for the adjuster: always a draft, for a human to accept or ignore. */
export interface SuggestedStep {
  step: string;
  reason: string;
  draft: true;
}

const GATE_STEPS: Record<Gate, string> = {
  injury: 'Request medical records and assign an injury-qualified adjuster',
  high_value: 'Schedule an on-site inspection and an independent estimate',
  fraud_indicator: 'Review the fraud indicators with special investigations before any payment',
  coverage_question: 'Confirm coverage against the policy wording before committing to an outcome',
  litigation: "Involve counsel and route all contact with the claimant's representative through them",
  vulnerable_customer: 'Assign a specialist handler and agree adjustments to how we communicate',
};

/** Draft next steps from the claim file: the escalation, the gates, missing documents, the promise. */
export function suggestNextSteps(
  claim: Claim,
  triage: TriageResult | null,
  escalation: Escalation | null,
  now = new Date(),
): SuggestedStep[] {
  const steps: SuggestedStep[] = [];
  const draft = (step: string, reason: string) => steps.push({ step, reason, draft: true });
  if (!triage) draft('Run triage', 'The claim has not been triaged');
  if (escalation?.status === 'open') draft('Decide the open escalation', `Triage raised ${escalation.gates.map((g) => g.gate).join(', ')}`);
  for (const gate of triage?.escalation_gates ?? []) draft(GATE_STEPS[gate.gate], gate.reason);
  for (const document of claim.required_documents.filter((d) => !d.received))
    draft(`Ask the claimant for ${document.type.replace(/_/g, ' ')}`, 'Required for this loss type and not yet received');
  if (claim.next_update_due && new Date(claim.next_update_due) <= now && claim.stage !== 'closed')
    draft('Send the claimant the promised status update', `It was due before ${claim.next_update_due}`);
  if (claim.stage === 'assigned')
    draft('Contact the claimant and move the claim to inspection or estimate', 'The claim is assigned and waiting for first work');
  return steps;
}
