import type { ClaimStage } from './claim-vocabulary';

/**
 * The claim lifecycle: the one place that says which stage may follow which, and who may move it.
 *
 *   intake → triage → assigned → {inspection, estimate, waiting_on_customer} ⇄ each other → settlement → closed
 *
 * and any open stage → closed: claims close paid, denied, withdrawn or as duplicates, and none of those has
 * to pass through settlement (the closing reason is the status update's to give). The same stage again is
 * a progress update. Moving into `settlement` or `closed`, and reopening a closed claim, need
 * `claims:decide`. Anything else is refused (409).
 */

export const DECIDE_SCOPE = 'claims:decide';
export const WRITE_SCOPE = 'claims:write';

const WORK_STAGES: readonly ClaimStage[] = ['inspection', 'estimate', 'waiting_on_customer'];
/** Where a reopened claim may go back to: anywhere an adjuster works on it. */
const REOPEN_STAGES: readonly ClaimStage[] = ['assigned', ...WORK_STAGES, 'settlement'];
const DECIDED_STAGES: readonly ClaimStage[] = ['settlement', 'closed'];

const NEXT: Record<ClaimStage, readonly ClaimStage[]> = {
  intake: ['triage', 'closed'],
  triage: ['assigned', 'closed'],
  assigned: [...WORK_STAGES, 'closed'],
  inspection: [...WORK_STAGES, 'settlement', 'closed'],
  estimate: [...WORK_STAGES, 'settlement', 'closed'],
  waiting_on_customer: [...WORK_STAGES, 'settlement', 'closed'],
  settlement: ['closed'],
  closed: REOPEN_STAGES,
};

export type TransitionKind = 'progress' | 'advance' | 'reopen';

export type TransitionVerdict = { allowed: true; kind: TransitionKind; needsDecide: boolean } | { allowed: false; reason: string };

/** Whether a status update may move a claim from `from` to `to`, and whether that needs `claims:decide`. */
export function judgeTransition(from: ClaimStage, to: ClaimStage): TransitionVerdict {
  if (from === 'closed') {
    if (REOPEN_STAGES.includes(to)) return { allowed: true, kind: 'reopen', needsDecide: true };
    return { allowed: false, reason: `The claim is closed; it can only be reopened into ${REOPEN_STAGES.join(', ')}` };
  }
  if (from === to) return { allowed: true, kind: 'progress', needsDecide: DECIDED_STAGES.includes(to) };
  if (NEXT[from].includes(to)) return { allowed: true, kind: 'advance', needsDecide: DECIDED_STAGES.includes(to) };
  const next = NEXT[from];
  return { allowed: false, reason: `A claim in ${from} can move to ${next.join(', ')} (or stay in ${from}), not to ${to}` };
}

/** Stages from which running triage moves the claim (into `assigned`, or `triage` while a human decides). */
export function triageMovesStage(stage: ClaimStage): boolean {
  return stage === 'intake' || stage === 'triage';
}

/** The stage a triage run leaves the claim in. Later stages keep their stage; a closed claim cannot be triaged. */
export function stageAfterTriage(stage: ClaimStage, gated: boolean): ClaimStage {
  if (!triageMovesStage(stage)) return stage;
  return gated ? 'triage' : 'assigned';
}

/** The stage a human escalation decision leaves the claim in. */
export function stageAfterDecision(stage: ClaimStage): ClaimStage {
  return triageMovesStage(stage) ? 'assigned' : stage;
}

export function isClosed(stage: ClaimStage): boolean {
  return stage === 'closed';
}
