import type { TriagePolicyParameters } from './triage-policy';

/** What triage knows about a claim, before any rule looks at it. */
export interface ClaimForTriage {
  loss_type: string;
  loss_date: string; // YYYY-MM-DD
  description: string;
  injuries: boolean;
  police_report_number: string | null;
  estimated_amount: string | null; // decimal string
  received_at: Date;
}

/** What triage learns from the database about the claim's neighbours. */
export interface ClaimHistory {
  /** Other claims on the same policy received within `same_policy_window_days` of this one (either side). */
  recent_claims_on_policy: number;
  /** Distinct other policies with claims (within `shared_contact_window_days`) that share this claimant's phone or email. */
  other_policies_sharing_contact: number;
}

/** The facts the rules see; also the stored, digested inputs of a triage run. */
export interface TriageFacts {
  loss_type: string;
  injuries_reported: boolean;
  theft_loss: boolean;
  police_report_present: boolean;
  estimated_amount: number | null;
  high_value_amount: number;
  report_lag_days: number;
  recent_claims_on_policy: number;
  other_policies_sharing_contact: number;
  same_policy_window_days: number;
  litigation_terms_found: string[];
  vulnerability_terms_found: string[];
  coverage_terms_found: string[];
}

/** The names of the facts a policy's conditions may use (the compiler holds the list to TriageFacts). */
export const TRIAGE_FACT_NAMES = [
  'loss_type',
  'injuries_reported',
  'theft_loss',
  'police_report_present',
  'estimated_amount',
  'high_value_amount',
  'report_lag_days',
  'recent_claims_on_policy',
  'other_policies_sharing_contact',
  'same_policy_window_days',
  'litigation_terms_found',
  'vulnerability_terms_found',
  'coverage_terms_found',
] as const satisfies readonly (keyof TriageFacts)[];
const everyFactNamed: Exclude<keyof TriageFacts, (typeof TRIAGE_FACT_NAMES)[number]> extends never ? true : never = true;
void everyFactNamed;

const THEFT_LOSS_TYPES = new Set(['auto_theft', 'property_theft']);
const DAY_MS = 24 * 60 * 60 * 1000;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The terms of `terms` that the text mentions as whole words (plural forms included), in list order. */
export function termsMentioned(text: string, terms: string[]): string[] {
  return terms.filter((term) => new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(term)}(s|es)?($|[^\\p{L}\\p{N}])`, 'iu').test(text));
}

/** Whole days between the loss and the report (0 when reported on the day, never negative). */
export function reportLagDays(lossDate: string, receivedAt: Date): number {
  const loss = Date.parse(`${lossDate}T00:00:00Z`);
  const received = Date.UTC(receivedAt.getUTCFullYear(), receivedAt.getUTCMonth(), receivedAt.getUTCDate());
  return Math.max(0, Math.floor((received - loss) / DAY_MS));
}

export function deriveFacts(claim: ClaimForTriage, history: ClaimHistory, parameters: TriagePolicyParameters): TriageFacts {
  return {
    loss_type: claim.loss_type,
    injuries_reported: claim.injuries,
    theft_loss: THEFT_LOSS_TYPES.has(claim.loss_type),
    police_report_present: Boolean(claim.police_report_number && claim.police_report_number.trim()),
    estimated_amount: claim.estimated_amount === null ? null : Number(claim.estimated_amount),
    high_value_amount: Number(parameters.high_value_amount),
    report_lag_days: reportLagDays(claim.loss_date, claim.received_at),
    recent_claims_on_policy: history.recent_claims_on_policy,
    other_policies_sharing_contact: history.other_policies_sharing_contact,
    same_policy_window_days: parameters.same_policy_window_days,
    litigation_terms_found: termsMentioned(claim.description, parameters.litigation_terms),
    vulnerability_terms_found: termsMentioned(claim.description, parameters.vulnerability_terms),
    coverage_terms_found: termsMentioned(claim.description, parameters.coverage_terms),
  };
}
