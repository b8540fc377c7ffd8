import { describe, expect, it } from 'vitest';
import type { components } from '../../api/client';
import { paymentStateText } from './FinancialsSection';

const usd = (amount: string) => ({ amount, currency: 'USD' });
const payment: components['schemas']['Payment'] = {
  payment_id: '7a1c2e3d-4b5f-4a6b-8c7d-9e0f1a2b3c4d',
  claim_id: '3f0e6c1a-8d2b-4c55-9a71-0b6f1f2d9e41',
  cost_category: 'indemnity',
  amount: usd('7500.00'),
  payee: { name: 'Ana Ruiz', kind: 'claimant' },
  method: 'eft',
  memo: 'Repair settlement',
  invoice_attachment_id: null,
  status: 'awaiting_approval',
  authority_limit: usd('5000.00'),
  requested_by: 'adjuster-ana',
  requested_at: '2026-03-02T10:15:00.000Z',
  decision: null,
  void: null,
};

describe("a payment's state in words", () => {
  it('tells its requester that someone with a higher limit must approve, and others whose limit it exceeded', () => {
    expect(paymentStateText(payment, 'adjuster-ana')).toBe(
      'Awaiting approval: above your limit of 5000.00 USD, someone with a higher limit must approve',
    );
    expect(paymentStateText(payment, 'lead-bo')).toBe("Awaiting approval: above adjuster-ana's limit of 5000.00 USD");
  });

  it('names who decided and why, or that it was within the limit', () => {
    const decision = {
      decision: 'approved' as const,
      decided_by: 'lead-bo',
      decided_at: payment.requested_at,
      rationale: 'Invoice checked',
    };
    expect(paymentStateText({ ...payment, status: 'approved', decision }, 'x')).toBe('Approved by lead-bo: Invoice checked');
    expect(paymentStateText({ ...payment, status: 'approved' }, 'x')).toBe("Approved (within adjuster-ana's limit)");
    expect(paymentStateText({ ...payment, status: 'rejected', decision: { ...decision, decision: 'rejected' } }, 'x')).toBe(
      'Rejected by lead-bo: Invoice checked',
    );
  });
});
