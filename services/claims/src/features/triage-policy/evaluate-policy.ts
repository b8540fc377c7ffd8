import { Engine } from 'json-rules-engine';
import { compile } from '@platform/http';
import { QUEUES, triagePolicySchema, type Gate, type Queue, type RuleEffect, type TriagePolicy } from './triage-policy';
import type { TriageFacts } from './triage-facts';

export interface RuleHit {
  rule_id: string;
  description: string;
  effect: string;
}

export interface EscalationGate {
  gate: Gate;
  reason: string;
}

export interface TriageVerdict {
  score: number;
  queue: Queue;
  rule_hits: RuleHit[];
  escalation_gates: EscalationGate[];
}

/** Refuses a policy that does not match its schema: a malformed policy must never route a claim. */
export function assertPolicyShape(policy: unknown): asserts policy is TriagePolicy {
  const validate = compile(triagePolicySchema);
  if (!validate(policy)) {
    const first = validate.errors?.[0];
    throw new Error(`Triage policy is malformed: ${first?.instancePath || '/'} ${first?.message ?? ''}`.trim());
  }
}

function describeEffect(effect: RuleEffect): string {
  const parts = [`score ${effect.score >= 0 ? '+' : ''}${effect.score}`];
  if (effect.queue_at_least) parts.push(`queue at least ${effect.queue_at_least}`);
  if (effect.gate) parts.push(`escalate: ${effect.gate}`);
  return parts.join('; ');
}

function fillPlaceholders(template: string, facts: TriageFacts): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = (facts as unknown as Record<string, unknown>)[name];
    if (value === undefined) return whole;
    return Array.isArray(value) ? value.join(', ') : String(value);
  });
}

function queueForScore(policy: TriagePolicy, score: number): Queue {
  const bands = [...policy.score_bands].sort((a, b) => b.min_score - a.min_score);
  return (bands.find((band) => score >= band.min_score) ?? bands[bands.length - 1]).queue;
}

const rank = (queue: Queue) => QUEUES.indexOf(queue);

/**
 * Runs the policy's rules over the facts: the score is the clamped sum of the hits' scores, the queue
 * the score's band raised to the strictest `queue_at_least` of the hits, and every hit with a gate
 * raises it (one entry per gate, the reasons of its rules joined).
 */
export async function evaluatePolicy(policy: TriagePolicy, facts: TriageFacts): Promise<TriageVerdict> {
  assertPolicyShape(policy);
  const engine = new Engine(policy.rules, { allowUndefinedFacts: false });
  engine.addOperator(
    'containsAnyTerm',
    (factValue: unknown, expected: unknown) => Array.isArray(factValue) && factValue.length > 0 === expected,
  );
  const { events } = await engine.run({ ...facts });
  const order = new Map(policy.rules.map((rule, index) => [rule.event.params.rule_id, index]));
  const effects = events
    .map((event) => event.params as unknown as RuleEffect)
    .sort((a, b) => (order.get(a.rule_id) ?? 0) - (order.get(b.rule_id) ?? 0));

  const score = Math.max(
    0,
    Math.min(
      100,
      effects.reduce((sum, effect) => sum + effect.score, 0),
    ),
  );
  let queue = queueForScore(policy, score);
  for (const effect of effects) if (effect.queue_at_least && rank(effect.queue_at_least) > rank(queue)) queue = effect.queue_at_least;

  const gates = new Map<Gate, string[]>();
  for (const effect of effects) {
    if (!effect.gate) continue;
    const reasons = gates.get(effect.gate) ?? [];
    reasons.push(fillPlaceholders(effect.reason ?? effect.description, facts));
    gates.set(effect.gate, reasons);
  }
  return {
    score,
    queue,
    rule_hits: effects.map((effect) => ({ rule_id: effect.rule_id, description: effect.description, effect: describeEffect(effect) })),
    escalation_gates: [...gates].map(([gate, reasons]) => ({ gate, reason: reasons.join('; ') })),
  };
}
