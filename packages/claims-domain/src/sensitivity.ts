/**
 * Which claims are sensitive: their personal data is special-category (health) or touches a suspicion of fraud,
 * so a person reads it only after saying why (the `Access-Purpose` the claim's access log records; issue 37).
 * The claims service decides with this for every read and tells the workbench (`GET …/claims/{id}/sensitivity`).
 */

/** The triage escalation gates that make a claim sensitive once any triage run has raised one. */
export const SENSITIVE_GATES = ['fraud_indicator'] as const;

export interface SensitivityFacts {
  /** The claimant reported an injury. */
  injuries: boolean | null;
  /** Every escalation gate any triage run raised on the claim. */
  gates: readonly string[];
}

/** A claim is sensitive when someone was injured or triage ever raised a sensitive gate on it. */
export function isSensitiveClaim(facts: SensitivityFacts): boolean {
  return facts.injuries === true || facts.gates.some((gate) => (SENSITIVE_GATES as readonly string[]).includes(gate));
}
