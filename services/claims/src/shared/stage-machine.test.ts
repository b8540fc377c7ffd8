import { CLAIM_STAGES, type ClaimStage } from './claim-vocabulary';
import { judgeTransition, stageAfterDecision, stageAfterTriage } from './stage-machine';

const allowed = (from: ClaimStage, to: ClaimStage) => judgeTransition(from, to).allowed;

describe('claim lifecycle state machine', () => {
  it('refuses skipping ahead, going backwards and leaving settlement for work stages', () => {
    expect(allowed('intake', 'assigned')).toBe(false);
    expect(allowed('intake', 'settlement')).toBe(false);
    expect(allowed('triage', 'inspection')).toBe(false);
    expect(allowed('assigned', 'triage')).toBe(false);
    expect(allowed('assigned', 'settlement')).toBe(false);
    expect(allowed('settlement', 'estimate')).toBe(false);
  });

  it('closes a claim from any open stage, with claims:decide (paid, denied, withdrawn, duplicate need no settlement)', () => {
    for (const stage of CLAIM_STAGES.filter((s) => s !== 'closed')) {
      expect(judgeTransition(stage, 'closed')).toEqual({ allowed: true, kind: 'advance', needsDecide: true });
    }
  });

  it('refuses anything on a closed claim except reopening into a working stage', () => {
    expect(judgeTransition('closed', 'closed')).toMatchObject({ allowed: false });
    expect(judgeTransition('closed', 'intake')).toMatchObject({ allowed: false });
    expect(judgeTransition('closed', 'triage')).toMatchObject({ allowed: false });
    expect(judgeTransition('closed', 'assigned')).toEqual({ allowed: true, kind: 'reopen', needsDecide: true });
    expect(judgeTransition('closed', 'estimate')).toEqual({ allowed: true, kind: 'reopen', needsDecide: true });
  });

  it('follows intake → triage → assigned → work stages ⇄ each other → settlement → closed', () => {
    expect(judgeTransition('intake', 'triage')).toEqual({ allowed: true, kind: 'advance', needsDecide: false });
    expect(judgeTransition('triage', 'assigned')).toEqual({ allowed: true, kind: 'advance', needsDecide: false });
    for (const work of ['inspection', 'estimate', 'waiting_on_customer'] as ClaimStage[]) {
      expect(judgeTransition('assigned', work)).toEqual({ allowed: true, kind: 'advance', needsDecide: false });
      for (const other of ['inspection', 'estimate', 'waiting_on_customer'] as ClaimStage[]) {
        if (other !== work) expect(judgeTransition(work, other)).toEqual({ allowed: true, kind: 'advance', needsDecide: false });
      }
      expect(judgeTransition(work, 'settlement')).toEqual({ allowed: true, kind: 'advance', needsDecide: true });
    }
    expect(judgeTransition('settlement', 'closed')).toEqual({ allowed: true, kind: 'advance', needsDecide: true });
  });

  it('treats the same stage as a progress update, which needs claims:decide only in settlement', () => {
    for (const stage of CLAIM_STAGES.filter((s) => s !== 'closed')) {
      expect(judgeTransition(stage, stage)).toEqual({ allowed: true, kind: 'progress', needsDecide: stage === 'settlement' });
    }
  });

  it('moves a claim only out of intake or triage when triage runs or a decision is taken', () => {
    expect(stageAfterTriage('intake', false)).toBe('assigned');
    expect(stageAfterTriage('intake', true)).toBe('triage');
    expect(stageAfterTriage('triage', false)).toBe('assigned');
    expect(stageAfterTriage('estimate', true)).toBe('estimate');
    expect(stageAfterDecision('triage')).toBe('assigned');
    expect(stageAfterDecision('inspection')).toBe('inspection');
  });
});
