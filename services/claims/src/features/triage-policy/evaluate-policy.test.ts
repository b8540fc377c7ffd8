import { DEFAULT_TRIAGE_POLICY } from './default-policy';
import { assertPolicyShape, evaluatePolicy } from './evaluate-policy';
import { deriveFacts, reportLagDays, termsMentioned, type ClaimForTriage, type ClaimHistory } from './triage-facts';

const simple: ClaimForTriage = {
  loss_type: 'auto_collision',
  loss_date: '2026-11-20',
  description: 'Rear-ended at a light',
  injuries: false,
  police_report_number: 'PR-77',
  estimated_amount: '2500.00',
  received_at: new Date('2026-11-22T10:00:00Z'),
};
const quiet: ClaimHistory = { recent_claims_on_policy: 0, other_policies_sharing_contact: 0 };

function triage(claim: Partial<ClaimForTriage>, history: Partial<ClaimHistory> = {}) {
  return evaluatePolicy(
    DEFAULT_TRIAGE_POLICY,
    deriveFacts({ ...simple, ...claim }, { ...quiet, ...history }, DEFAULT_TRIAGE_POLICY.parameters),
  );
}
const gatesOf = async (claim: Partial<ClaimForTriage>, history: Partial<ClaimHistory> = {}) =>
  (await triage(claim, history)).escalation_gates.map((g) => g.gate);

describe('triage policy evaluation', () => {
  it('refuses a malformed policy instead of routing with it', async () => {
    expect(() => assertPolicyShape({ ...DEFAULT_TRIAGE_POLICY, score_bands: [] })).toThrow(/malformed/);
    const badRule = {
      ...DEFAULT_TRIAGE_POLICY.rules[0],
      event: { type: 'rule_hit', params: { rule_id: 'x', description: 'x', score: 5, gate: 'astrology' } },
    };
    await expect(
      evaluatePolicy({ ...DEFAULT_TRIAGE_POLICY, rules: [badRule] } as never, deriveFacts(simple, quiet, DEFAULT_TRIAGE_POLICY.parameters)),
    ).rejects.toThrow(/malformed/);
  });

  it('raises the injury gate for an injury flag or an injury loss type', async () => {
    expect(await gatesOf({ injuries: true })).toEqual(['injury']);
    expect(await gatesOf({ loss_type: 'injury' })).toEqual(['injury']);
  });

  it('raises the high-value gate at the policy threshold, not below it', async () => {
    expect(await gatesOf({ estimated_amount: '25000.00' })).toEqual(['high_value']);
    expect(await gatesOf({ estimated_amount: '24999.99' })).toEqual([]);
  });

  it('raises the fraud gate for repeat claims, shared contacts, theft without police report and late reports', async () => {
    expect(await gatesOf({}, { recent_claims_on_policy: 2 })).toEqual(['fraud_indicator']);
    expect(await gatesOf({}, { recent_claims_on_policy: 1 })).toEqual([]);
    expect(await gatesOf({}, { other_policies_sharing_contact: 2 })).toEqual(['fraud_indicator']);
    expect(await gatesOf({ loss_type: 'auto_theft', police_report_number: null })).toEqual(['fraud_indicator']);
    expect(await gatesOf({ loss_type: 'auto_theft', police_report_number: 'PR-1' })).toEqual([]);
    expect(await gatesOf({ loss_date: '2026-09-01' })).toEqual(['fraud_indicator']);
    const repeat = await triage({ loss_type: 'property_theft', police_report_number: null }, { recent_claims_on_policy: 3 });
    expect(repeat.escalation_gates).toHaveLength(1);
    expect(repeat.escalation_gates[0].reason).toContain('3 other claims on this policy in the last 90 days');
    expect(repeat.escalation_gates[0].reason).toContain('property_theft claim has no police report');
    expect(repeat.queue).toBe('special_investigations');
  });

  it('raises litigation, vulnerability and coverage gates from the description', async () => {
    expect(await gatesOf({ description: 'My attorney will be in touch' })).toEqual(['litigation']);
    expect(await gatesOf({ description: 'My elderly mother was driving' })).toEqual(['vulnerable_customer']);
    expect(await gatesOf({ description: 'Not sure if this is covered — was using the car for rideshare' })).toEqual(['coverage_question']);
    expect(await gatesOf({ description: 'Hit a lawyers office sign' })).toEqual(['litigation']);
  });

  it('routes a simple claim to fast track with no gates and no hits', async () => {
    const verdict = await triage({});
    expect(verdict).toEqual({ score: 0, queue: 'fast_track', rule_hits: [], escalation_gates: [] });
  });

  it('scores, bands and raises the queue from the hits, and describes each hit', async () => {
    const verdict = await triage({ loss_type: 'liability', estimated_amount: '6000' });
    expect(verdict.score).toBe(40);
    expect(verdict.queue).toBe('standard');
    expect(verdict.rule_hits.map((h) => h.rule_id)).toEqual(['liability-loss', 'moderate-value']);
    expect(verdict.rule_hits[0].effect).toBe('score +20; queue at least standard');
    const many = await triage({ injuries: true, estimated_amount: '90000', description: 'lawsuit coming' }, { recent_claims_on_policy: 5 });
    expect(many.score).toBe(100);
    expect(many.queue).toBe('special_investigations');
    expect(many.escalation_gates.map((g) => g.gate)).toEqual(['injury', 'high_value', 'fraud_indicator', 'litigation']);
  });
});

describe('triage facts', () => {
  it('matches whole words and plurals only', () => {
    expect(termsMentioned('Attorneys called', ['attorney'])).toEqual(['attorney']);
    expect(termsMentioned('a courteous driver', ['court'])).toEqual([]);
    expect(termsMentioned('she PASSED AWAY last year', ['passed away'])).toEqual(['passed away']);
  });

  it('counts report lag in whole UTC days and never negative', () => {
    expect(reportLagDays('2026-11-20', new Date('2026-11-22T23:59:00Z'))).toBe(2);
    expect(reportLagDays('2026-11-22', new Date('2026-11-22T00:00:00Z'))).toBe(0);
    expect(reportLagDays('2026-11-23', new Date('2026-11-22T00:00:00Z'))).toBe(0);
  });
});
