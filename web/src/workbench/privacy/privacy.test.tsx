import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { headerSafePurpose, PurposePrompt } from '../claim/PurposePrompt';
import { retentionText } from './ClaimantClaims';
import type { ClaimantClaim } from './privacy-api';

const NOW = Date.parse('2026-12-01T12:00:00Z');
const claim = (overrides: Partial<ClaimantClaim>): ClaimantClaim => ({
  claimId: 'c1',
  claimNumber: 'CLM-2026-000001',
  stage: 'closed',
  closingReason: 'duplicate',
  closedAt: '2026-11-01T10:00:00Z',
  retainUntil: '2027-11-01T10:00:00Z',
  holds: [],
  ...overrides,
});

describe('the retention of a claimant’s claim, in words', () => {
  it('says a hold first, then an open claim, then the day it is kept until or that it may be erased', () => {
    const hold = {
      hold_id: 'h1',
      claim_id: 'c1',
      reason: 'Litigation',
      placed_by: 'privacy-pia',
      placed_at: '2026-11-20T09:00:00Z',
      released: null,
    };
    expect(retentionText(claim({ holds: [hold], retainUntil: '2026-11-02T00:00:00Z' }), NOW)).toBe('Held (1 legal hold)');
    expect(retentionText(claim({ stage: 'assigned', closingReason: null, closedAt: null, retainUntil: null }), NOW)).toBe(
      'Open: kept while the claim is open',
    );
    expect(retentionText(claim({}), NOW)).toBe('Kept until 1 Nov 2027, 10:00 UTC');
    expect(retentionText(claim({ retainUntil: '2026-12-01T12:00:00Z' }), NOW)).toBe('Retention passed: may be erased');
  });
});

describe('the purpose prompt of a sensitive claim', () => {
  it('asks for the purpose before its personal data is shown, and gives only a non-blank one', async () => {
    const user = userEvent.setup();
    const onGive = vi.fn();
    render(<PurposePrompt onGive={onGive} />);
    expect(screen.getByLabelText('Purpose')).toHaveFocus();
    await user.keyboard('   {Enter}');
    expect(onGive).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText('Purpose'), ' Reviewing the medical report {Enter}');
    expect(onGive).toHaveBeenCalledWith('Reviewing the medical report');
  });
});

describe('the purpose as a header carries it', () => {
  it('turns typographic punctuation plain, keeps Latin-1 letters, and refuses what a header cannot carry', () => {
    expect(headerSafePurpose(' Reviewing the claimant’s “medical” report — revisión… ')).toBe(
      'Reviewing the claimant\'s "medical" report - revisión...',
    );
    expect(headerSafePurpose('审核')).toBeNull();
    expect(headerSafePurpose('Review \u{1F600}')).toBeNull();
  });
});
