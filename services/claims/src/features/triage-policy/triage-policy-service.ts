import type { Knex } from '@platform/db';
import { problems } from '@platform/http';
import { TRIAGE_FACT_NAMES } from './triage-facts';
import { policyProblems, type Gate, type TriagePolicy } from './triage-policy';
import type { PublishedTriagePolicy } from './triage-policy-schemas';
import { triagePolicyStore } from './triage-policy-store';

/** The gates a policy's rules can raise, each once, in rule order. */
function gatesOf(policy: TriagePolicy): Gate[] {
  return [...new Set(policy.rules.flatMap((rule) => (rule.event.params.gate ? [rule.event.params.gate] : [])))];
}

/**
 * The triage policy as data: the active version can be read; a new version is published beside the old
 * ones (which never change: the database refuses it), becomes the active one, and records who published it.
 */
export const triagePolicyService = () => (db: Knex) => {
  const store = triagePolicyStore(db);
  const current = async (): Promise<PublishedTriagePolicy> => {
    const found = await store.activePublication();
    if (!found) throw problems.serviceUnavailable('No triage policy is active');
    return {
      ...found.policy,
      gates: gatesOf(found.policy),
      active: true,
      published_by: found.published_by,
      published_at: found.published_at,
    };
  };
  return {
    current,

    /** `policy` already matches the policy schema; 422 when it could not run, 409 when its version exists. */
    async publish(policy: TriagePolicy, publishedBy: string): Promise<PublishedTriagePolicy> {
      const errors = policyProblems(policy, TRIAGE_FACT_NAMES);
      if (errors.length > 0)
        throw problems.unprocessable(`The policy could not run: ${errors[0].pointer} ${errors[0].message}`, { errors });
      await store.lockActivePolicy();
      if (await store.policyVersionExists(policy.version))
        throw problems.conflict(
          `Triage policy version ${policy.version} is already published; a published version never changes, publish a new version`,
        );
      await store.publishPolicy(policy, publishedBy);
      return current();
    },
  };
};
