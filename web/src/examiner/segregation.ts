/**
 * Why the signed-in examiner may not decide a run (segregation of duties, the rule the decision enforces:
 * never the run's creator, its submitter, or anyone who added evidence to it), or null when they may.
 */
export type SodReason = 'submitted' | 'opened' | 'added_evidence';

export interface RunPeople {
  created_by: string;
  submitted_by: string | null;
  evidence?: readonly { submitted_by: string }[];
}

export function sodReason(run: RunPeople, me: string | null): SodReason | null {
  if (me === null) return null;
  if (run.submitted_by === me) return 'submitted';
  if (run.created_by === me) return 'opened';
  if (run.evidence?.some((item) => item.submitted_by === me)) return 'added_evidence';
  return null;
}

export const SOD_MESSAGES: Record<SodReason, string> = {
  submitted: 'You submitted this, someone else must decide.',
  opened: 'You opened this run, someone else must decide.',
  added_evidence: 'You added evidence to this run, someone else must decide.',
};
