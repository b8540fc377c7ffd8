import { sameSubject } from '../../../packages/auth/src/subject';

/**
 * Why the signed-in examiner may not decide a run (segregation of duties, the rule the decision enforces:
 * never the run's creator, its submitter, or anyone who added evidence to it), or null when they may. Subjects
 * are compared as the service compares them (sameSubject: `ALICE` and `alicé` are alice).
 */
export type SodReason = 'submitted' | 'opened' | 'added_evidence';

export interface RunPeople {
  created_by: string;
  submitted_by: string | null;
  evidence?: readonly { submitted_by: string }[];
}

export function sodReason(run: RunPeople, me: string | null): SodReason | null {
  if (me === null) return null;
  if (run.submitted_by !== null && sameSubject(run.submitted_by, me)) return 'submitted';
  if (sameSubject(run.created_by, me)) return 'opened';
  if (run.evidence?.some((item) => sameSubject(item.submitted_by, me))) return 'added_evidence';
  return null;
}

export const SOD_MESSAGES: Record<SodReason, string> = {
  submitted: 'You submitted this, someone else must decide.',
  opened: 'You opened this run, someone else must decide.',
  added_evidence: 'You added evidence to this run, someone else must decide.',
};
