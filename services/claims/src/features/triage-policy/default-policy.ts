import type { TriagePolicy } from './triage-policy';

/**
 * The triage policy installed by migration 0002. Once installed it is data: a new policy is a new
 * version row, never an edit of this one.
 */
export const DEFAULT_TRIAGE_POLICY: TriagePolicy = {
  version: '2026-11-01.1',
  description:
    'Default first-notice triage: routes simple claims, gates injury, high value, fraud, coverage, litigation and vulnerability for a human',
  parameters: {
    high_value_amount: '25000.00',
    same_policy_window_days: 90,
    shared_contact_window_days: 365,
    litigation_terms: [
      'attorney',
      'lawyer',
      'solicitor',
      'lawsuit',
      'litigation',
      'legal action',
      'legal representation',
      'suing',
      'sue them',
      'sue you',
      'class action',
      'small claims court',
    ],
    vulnerability_terms: [
      'elderly',
      'disability',
      'disabled',
      'bereavement',
      'bereaved',
      'passed away',
      'deceased',
      'widow',
      'widowed',
      'dementia',
      'terminal illness',
      'wheelchair',
      'pregnant',
      'vulnerable',
      'hospice',
      'carer',
    ],
    coverage_terms: [
      'coverage',
      'not covered',
      'is it covered',
      'exclusion',
      'excluded',
      'lapsed',
      'policy was cancelled',
      'policy was canceled',
      'rideshare',
      'business use',
      'unlisted driver',
      'not on the policy',
    ],
  },
  score_bands: [
    { min_score: 0, queue: 'fast_track' },
    { min_score: 20, queue: 'standard' },
    { min_score: 45, queue: 'complex' },
    { min_score: 70, queue: 'special_investigations' },
  ],
  rules: [
    {
      name: 'injury-reported',
      conditions: {
        any: [
          { fact: 'injuries_reported', operator: 'equal', value: true },
          { fact: 'loss_type', operator: 'equal', value: 'injury' },
        ],
      },
      event: {
        type: 'rule_hit',
        params: {
          rule_id: 'injury-reported',
          description: 'Someone was injured',
          score: 30,
          queue_at_least: 'complex',
          gate: 'injury',
          reason: 'The claim reports an injury (loss type {loss_type})',
        },
      },
    },
    {
      name: 'high-value',
      conditions: { all: [{ fact: 'estimated_amount', operator: 'greaterThanInclusive', value: { fact: 'high_value_amount' } }] },
      event: {
        type: 'rule_hit',
        params: {
          rule_id: 'high-value',
          description: 'Estimated amount at or above the high-value threshold',
          score: 25,
          queue_at_least: 'complex',
          gate: 'high_value',
          reason: 'Estimated {estimated_amount} is at or above {high_value_amount}',
        },
      },
    },
    {
      name: 'repeat-claims-on-policy',
      conditions: { all: [{ fact: 'recent_claims_on_policy', operator: 'greaterThanInclusive', value: 2 }] },
      event: {
        type: 'rule_hit',
        params: {
          rule_id: 'repeat-claims-on-policy',
          description: 'Several other claims on the same policy in a short window',
          score: 35,
          queue_at_least: 'special_investigations',
          gate: 'fraud_indicator',
          reason: '{recent_claims_on_policy} other claims on this policy in the last {same_policy_window_days} days',
        },
      },
    },
    {
      name: 'contact-across-policies',
      conditions: { all: [{ fact: 'other_policies_sharing_contact', operator: 'greaterThanInclusive', value: 2 }] },
      event: {
        type: 'rule_hit',
        params: {
          rule_id: 'contact-across-policies',
          description: 'The same phone or email on claims of several policies',
          score: 35,
          queue_at_least: 'special_investigations',
          gate: 'fraud_indicator',
          reason: 'The claimant contact appears on claims of {other_policies_sharing_contact} other policies',
        },
      },
    },
    {
      name: 'theft-without-police-report',
      conditions: {
        all: [
          { fact: 'theft_loss', operator: 'equal', value: true },
          { fact: 'police_report_present', operator: 'equal', value: false },
        ],
      },
      event: {
        type: 'rule_hit',
        params: {
          rule_id: 'theft-without-police-report',
          description: 'Theft reported without a police report number',
          score: 30,
          queue_at_least: 'special_investigations',
          gate: 'fraud_indicator',
          reason: 'A {loss_type} claim has no police report number',
        },
      },
    },
    {
      name: 'late-report',
      conditions: { all: [{ fact: 'report_lag_days', operator: 'greaterThan', value: 30 }] },
      event: {
        type: 'rule_hit',
        params: {
          rule_id: 'late-report',
          description: 'Loss reported more than 30 days after it happened',
          score: 20,
          queue_at_least: 'standard',
          gate: 'fraud_indicator',
          reason: 'Reported {report_lag_days} days after the loss',
        },
      },
    },
    {
      name: 'litigation-language',
      conditions: { all: [{ fact: 'litigation_terms_found', operator: 'containsAnyTerm', value: true }] },
      event: {
        type: 'rule_hit',
        params: {
          rule_id: 'litigation-language',
          description: 'The description mentions lawyers or legal action',
          score: 25,
          queue_at_least: 'complex',
          gate: 'litigation',
          reason: 'The description mentions: {litigation_terms_found}',
        },
      },
    },
    {
      name: 'vulnerable-customer',
      conditions: { all: [{ fact: 'vulnerability_terms_found', operator: 'containsAnyTerm', value: true }] },
      event: {
        type: 'rule_hit',
        params: {
          rule_id: 'vulnerable-customer',
          description: 'The description suggests a vulnerable customer',
          score: 10,
          queue_at_least: 'standard',
          gate: 'vulnerable_customer',
          reason: 'The description mentions: {vulnerability_terms_found}',
        },
      },
    },
    {
      name: 'coverage-question',
      conditions: { all: [{ fact: 'coverage_terms_found', operator: 'containsAnyTerm', value: true }] },
      event: {
        type: 'rule_hit',
        params: {
          rule_id: 'coverage-question',
          description: 'The description raises a coverage question',
          score: 15,
          queue_at_least: 'complex',
          gate: 'coverage_question',
          reason: 'The description mentions: {coverage_terms_found}',
        },
      },
    },
    {
      name: 'liability-loss',
      conditions: { all: [{ fact: 'loss_type', operator: 'equal', value: 'liability' }] },
      event: {
        type: 'rule_hit',
        params: {
          rule_id: 'liability-loss',
          description: 'Third-party liability needs an adjuster',
          score: 20,
          queue_at_least: 'standard',
        },
      },
    },
    {
      name: 'moderate-value',
      conditions: {
        all: [
          { fact: 'estimated_amount', operator: 'greaterThanInclusive', value: 5000 },
          { fact: 'estimated_amount', operator: 'lessThan', value: { fact: 'high_value_amount' } },
        ],
      },
      event: { type: 'rule_hit', params: { rule_id: 'moderate-value', description: 'Estimated amount of 5000 or more', score: 20 } },
    },
    {
      name: 'amount-unknown',
      conditions: { all: [{ fact: 'estimated_amount', operator: 'equal', value: null }] },
      event: { type: 'rule_hit', params: { rule_id: 'amount-unknown', description: 'No estimated amount was given', score: 5 } },
    },
  ],
};
