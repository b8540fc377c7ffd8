import { describe, expect, it } from 'vitest';
import { documentsReceivedSince, documentsStillNeeded, timelineSteps, updateStillAsks } from './claim-progress';

const steps = (claim: Parameters<typeof timelineSteps>[0]) => timelineSteps(claim).map((step) => `${step.label}:${step.state}`);

describe('timelineSteps', () => {
  it('shows a claim withdrawn at intake as received then closed — withdrawn, no review or settlement marked done', () => {
    expect(steps({ stage: 'closed', stages_passed: ['intake'], closing_reason: 'withdrawn' })).toEqual([
      'stage_intake:done',
      'closed_withdrawn:current',
    ]);
  });

  it('names every closing reason in its own words', () => {
    for (const reason of ['paid', 'denied', 'duplicate'] as const)
      expect(timelineSteps({ stage: 'closed', stages_passed: ['intake', 'triage'], closing_reason: reason }).at(-1)).toEqual({
        stage: 'closed',
        state: 'current',
        label: `closed_${reason}`,
      });
  });

  it('marks done only the stages passed, then the current one, then the milestones ahead (no side step ahead)', () => {
    expect(steps({ stage: 'inspection', stages_passed: ['intake', 'assigned'], closing_reason: null })).toEqual([
      'stage_intake:done',
      'stage_assigned:done',
      'stage_inspection:current',
      'stage_estimate:upcoming',
      'stage_settlement:upcoming',
      'stage_closed:upcoming',
    ]);
  });

  it('shows waiting on the customer when the claim was or is in it, and a reopened claim without its earlier closing', () => {
    expect(steps({ stage: 'waiting_on_customer', stages_passed: ['intake', 'triage', 'assigned'], closing_reason: null })).toContain(
      'stage_waiting_on_customer:current',
    );
    expect(
      steps({ stage: 'estimate', stages_passed: ['intake', 'triage', 'assigned', 'waiting_on_customer', 'closed'], closing_reason: null }),
    ).toEqual([
      'stage_intake:done',
      'stage_triage:done',
      'stage_assigned:done',
      'stage_waiting_on_customer:done',
      'stage_estimate:current',
      'stage_settlement:upcoming',
      'stage_closed:upcoming',
    ]);
  });
});

describe('documentsReceivedSince and documentsStillNeeded', () => {
  const attachment = (document_type: string, received_at: string) => ({
    attachment_id: `a-${document_type}`,
    filename: 'f',
    content_type: 'application/pdf',
    size_bytes: 1,
    document_type,
    received_at,
    scan_status: 'clean' as const,
    scan_notice: null,
  });
  const claim = {
    stage: 'triage' as const,
    required_documents: [
      { type: 'photos_of_damage', received: true },
      { type: 'police_report', received: true },
      { type: 'repair_estimate', received: false },
    ],
    attachments: [attachment('photos_of_damage', '2026-11-20T10:00:00Z'), attachment('police_report', '2026-11-21T09:00:00Z')],
  };

  it('names the documents that arrived after an update was sent, not those sent before it', () => {
    expect(documentsReceivedSince('2026-11-20T12:00:00Z', claim)).toEqual(['police_report']);
    expect(documentsReceivedSince('2026-11-22T00:00:00Z', claim)).toEqual([]);
  });

  it('asks for what is missing while open, and for nothing once closed', () => {
    expect(documentsStillNeeded(claim)).toEqual([{ type: 'repair_estimate', received: false }]);
    expect(documentsStillNeeded({ ...claim, stage: 'closed' })).toEqual([]);
  });

  it('an update still asks until what arrived after it leaves nothing missing, and never once the claim is closed', () => {
    expect(updateStillAsks('2026-11-20T12:00:00Z', claim)).toBe(true); // the repair estimate is still missing
    const complete = { ...claim, required_documents: claim.required_documents.map((document) => ({ ...document, received: true })) };
    expect(updateStillAsks('2026-11-20T12:00:00Z', complete)).toBe(false);
    expect(updateStillAsks('2026-11-22T00:00:00Z', complete)).toBe(true); // nothing arrived since: its request stands as sent
    expect(updateStillAsks('2026-11-22T00:00:00Z', { ...claim, stage: 'closed' })).toBe(false);
  });
});
