import type { RuleProperties } from 'json-rules-engine';

/** A triage policy is data: versioned, stored in `triage_policies`, evaluated by json-rules-engine. */
export const QUEUES = ['fast_track', 'standard', 'complex', 'special_investigations'] as const;
export type Queue = (typeof QUEUES)[number];

export const GATES = ['injury', 'high_value', 'fraud_indicator', 'coverage_question', 'litigation', 'vulnerable_customer'] as const;
export type Gate = (typeof GATES)[number];

/** What a rule does when its conditions hold (the `event.params` of a json-rules-engine rule). */
export interface RuleEffect {
  rule_id: string;
  description: string;
  /** Added to the score (the total is clamped to 0–100). */
  score: number;
  /** The queue is at least this one. */
  queue_at_least?: Queue;
  /** A human must decide before the claim is routed. */
  gate?: Gate;
  /** Why the gate was raised; `{fact}` placeholders are filled from the facts. */
  reason?: string;
}

export interface TriagePolicyRule extends RuleProperties {
  name: string;
  event: { type: 'rule_hit'; params: RuleEffect & Record<string, unknown> };
}

export interface TriagePolicyParameters {
  /** Estimated amounts at or above this are high value (decimal string). */
  high_value_amount: string;
  /** Look-back window for other claims on the same policy. */
  same_policy_window_days: number;
  /** Look-back window for the same phone or email across policies. */
  shared_contact_window_days: number;
  litigation_terms: string[];
  vulnerability_terms: string[];
  coverage_terms: string[];
}

export interface ScoreBand {
  /** The lowest score of the band; the band with the highest min_score not above the score applies. */
  min_score: number;
  queue: Queue;
}

export interface TriagePolicy {
  version: string;
  description: string;
  parameters: TriagePolicyParameters;
  score_bands: ScoreBand[];
  rules: TriagePolicyRule[];
}

const condition = {
  type: 'object',
  properties: {
    all: { type: 'array', items: { $ref: '#/$defs/condition' } },
    any: { type: 'array', items: { $ref: '#/$defs/condition' } },
    not: { $ref: '#/$defs/condition' },
    fact: { type: 'string' },
    operator: { type: 'string' },
    value: {},
    path: { type: 'string' },
    params: { type: 'object' },
  },
  additionalProperties: false,
} as const;

/** Checked whenever a policy is loaded: a malformed policy must never route claims. */
export const triagePolicySchema = {
  $id: 'urn:claims:triage-policy',
  type: 'object',
  required: ['version', 'description', 'parameters', 'score_bands', 'rules'],
  additionalProperties: false,
  $defs: { condition },
  properties: {
    version: { type: 'string', minLength: 1 },
    description: { type: 'string' },
    parameters: {
      type: 'object',
      required: [
        'high_value_amount',
        'same_policy_window_days',
        'shared_contact_window_days',
        'litigation_terms',
        'vulnerability_terms',
        'coverage_terms',
      ],
      additionalProperties: false,
      properties: {
        high_value_amount: { type: 'string', pattern: '^\\d+(\\.\\d{1,2})?$' },
        same_policy_window_days: { type: 'integer', minimum: 1 },
        shared_contact_window_days: { type: 'integer', minimum: 1 },
        litigation_terms: { type: 'array', items: { type: 'string', minLength: 1 } },
        vulnerability_terms: { type: 'array', items: { type: 'string', minLength: 1 } },
        coverage_terms: { type: 'array', items: { type: 'string', minLength: 1 } },
      },
    },
    score_bands: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['min_score', 'queue'],
        additionalProperties: false,
        properties: { min_score: { type: 'integer', minimum: 0, maximum: 100 }, queue: { enum: QUEUES } },
      },
    },
    rules: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'conditions', 'event'],
        additionalProperties: false,
        properties: {
          name: { type: 'string' },
          priority: { type: 'integer', minimum: 1 },
          conditions: { $ref: '#/$defs/condition' },
          event: {
            type: 'object',
            required: ['type', 'params'],
            additionalProperties: false,
            properties: {
              type: { const: 'rule_hit' },
              params: {
                type: 'object',
                required: ['rule_id', 'description', 'score'],
                additionalProperties: false,
                properties: {
                  rule_id: { type: 'string', minLength: 1 },
                  description: { type: 'string', minLength: 1 },
                  score: { type: 'integer', minimum: -100, maximum: 100 },
                  queue_at_least: { enum: QUEUES },
                  gate: { enum: GATES },
                  reason: { type: 'string' },
                },
              },
            },
          },
        },
      },
    },
  },
} as const;

/** json-rules-engine's built-in operators and the one evaluatePolicy adds. */
const OPERATORS = new Set([
  'equal',
  'notEqual',
  'in',
  'notIn',
  'contains',
  'doesNotContain',
  'lessThan',
  'lessThanInclusive',
  'greaterThan',
  'greaterThanInclusive',
  'containsAnyTerm',
]);

type Condition = { all?: Condition[]; any?: Condition[]; not?: Condition; fact?: string; operator?: string; value?: unknown };

/**
 * What the schema cannot check about a policy about to be published, so it can never fail when it runs:
 * every condition names a known fact and operator (a fact as a value too), rule ids are unique.
 */
export function policyProblems(policy: TriagePolicy, factNames: readonly string[]): { pointer: string; message: string }[] {
  const facts = new Set(factNames);
  const problems: { pointer: string; message: string }[] = [];
  const visit = (condition: Condition, pointer: string) => {
    condition.all?.forEach((inner, index) => visit(inner, `${pointer}/all/${index}`));
    condition.any?.forEach((inner, index) => visit(inner, `${pointer}/any/${index}`));
    if (condition.not) visit(condition.not, `${pointer}/not`);
    if (condition.all || condition.any || condition.not) return;
    if (condition.fact === undefined || !facts.has(condition.fact))
      problems.push({ pointer: `${pointer}/fact`, message: `must be one of the triage facts: ${factNames.join(', ')}` });
    if (condition.operator === undefined || !OPERATORS.has(condition.operator))
      problems.push({ pointer: `${pointer}/operator`, message: `must be one of: ${[...OPERATORS].join(', ')}` });
    const value = condition.value as { fact?: unknown } | undefined;
    if (value && typeof value === 'object' && 'fact' in value && !facts.has(String(value.fact)))
      problems.push({ pointer: `${pointer}/value/fact`, message: 'must be one of the triage facts' });
  };
  const seen = new Set<string>();
  policy.rules.forEach((rule, index) => {
    visit(rule.conditions as Condition, `/rules/${index}/conditions`);
    const id = rule.event.params.rule_id;
    if (seen.has(id)) problems.push({ pointer: `/rules/${index}/event/params/rule_id`, message: 'must be unique in the policy' });
    seen.add(id);
  });
  return problems;
}

/** The gates a triage run raised, as its events carry them. */
export const raisedGatesSchema = { type: 'array', items: { type: 'string' }, description: 'The escalation gates raised' } as const;
