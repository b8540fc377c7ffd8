import { CLAIM_STAGES, type ClaimStage, type ClosingReason } from '@platform/claims-domain';
import type { MessageKey } from '../i18n/messages';
import type { ClaimantStatus } from './portal-api';

export interface TimelineStep {
  stage: ClaimStage;
  state: 'done' | 'current' | 'upcoming';
  label: MessageKey;
}

/**
 * The claim's lifecycle as the claimant lived it: the stages it actually passed (a withdrawal at intake
 * passed no review), the current one, and — while it is open — the milestones still ahead.
 * waiting_on_customer is a side step: shown when the claim was or is in it, never as a milestone ahead.
 */
export function timelineSteps(claim: Pick<ClaimantStatus, 'stage' | 'stages_passed' | 'closing_reason'>): TimelineStep[] {
  const passed = claim.stages_passed.filter((stage) => stage !== claim.stage && stage !== 'closed');
  const done = passed.map((stage): TimelineStep => ({ stage, state: 'done', label: `stage_${stage}` }));
  if (claim.stage === 'closed') {
    const label: MessageKey = claim.closing_reason ? closedLabel(claim.closing_reason) : 'stage_closed';
    return [...done, { stage: 'closed', state: 'current', label }];
  }
  const ahead = CLAIM_STAGES.slice(CLAIM_STAGES.indexOf(claim.stage) + 1).filter(
    (stage) => stage !== 'waiting_on_customer' && !passed.includes(stage),
  );
  return [
    ...done,
    { stage: claim.stage, state: 'current', label: `stage_${claim.stage}` },
    ...ahead.map((stage): TimelineStep => ({ stage, state: 'upcoming', label: `stage_${stage}` })),
  ];
}

export function closedLabel(reason: ClosingReason): MessageKey {
  return `closed_${reason}`;
}

/**
 * The document types an update asked for that arrived after it was sent: the checklist is the truth, so an
 * older request for them reads "received since" instead of still asking.
 */
export function documentsReceivedSince(sentAt: string, claim: Pick<ClaimantStatus, 'required_documents' | 'attachments'>): string[] {
  const sent = Date.parse(sentAt);
  const arrived = new Set(claim.attachments.filter((file) => Date.parse(file.received_at) > sent).map((file) => file.document_type));
  return claim.required_documents.filter((document) => document.received && arrived.has(document.type)).map((document) => document.type);
}

/** A closed claim asks for nothing; an open one asks for what its checklist still misses. */
export function documentsStillNeeded(claim: Pick<ClaimantStatus, 'stage' | 'required_documents'>): ClaimantStatus['required_documents'] {
  return claim.stage === 'closed' ? [] : claim.required_documents.filter((document) => !document.received);
}

/**
 * Whether an update sent at `sentAt` still asks for something: not once the claim is closed, nor once the
 * documents that arrived after it leave the checklist with nothing missing (its link to send them goes).
 */
export function updateStillAsks(sentAt: string, claim: Pick<ClaimantStatus, 'stage' | 'required_documents' | 'attachments'>): boolean {
  if (claim.stage === 'closed') return false;
  return documentsReceivedSince(sentAt, claim).length === 0 || documentsStillNeeded(claim).length > 0;
}
