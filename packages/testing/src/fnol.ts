import { randomInt } from 'node:crypto';

/** The calendar date `days` days before today (YYYY-MM-DD). */
const daysAgo = (days: number) => new Date(Date.now() - days * 86400_000).toISOString().slice(0, 10);

/**
 * The one valid first notice of loss of the tests and the bench: CONTRACT.md §3's example, the loss two days
 * ago. `overrides` replace top-level fields (a nested one whole: `loss: { ...fnolBody().loss, type }`), so a
 * test states only what it is about. The same call gives the same body (idempotent retries compare them).
 */
export function fnolBody(overrides: Record<string, unknown> = {}): Record<string, unknown> & { loss: Record<string, unknown> } {
  return {
    policy_number: 'POL-123456',
    claimant: { name: 'Ana Ruiz', email: 'ana@example.com', phone: '+14155550100' },
    loss: {
      date: daysAgo(2),
      type: 'auto_collision',
      description: 'Rear-ended at a light',
      location: { address_line: '1 Main St', city: 'Springfield', postal_code: '12345', country: 'US' },
    },
    injuries: false,
    police_report_number: 'PR-77',
    estimated_amount: { amount: '2500.00', currency: 'USD' },
    preferred_channel: 'email',
    language: 'en',
    ...overrides,
  } as Record<string, unknown> & { loss: Record<string, unknown> };
}

/** A policy number of its own, for a claim that must not count as another on the same policy (triage's repeat-claims rule). */
export function uniquePolicyNumber(): string {
  return `POL-${randomInt(100000, 1000000)}`;
}
