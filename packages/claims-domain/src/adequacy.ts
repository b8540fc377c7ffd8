import type { Channel } from './vocabulary';

/** The parts of a status update adequacy looks at (the service's request, or a draft in the workbench composer). */
export interface AdequacyInput {
  channel: Channel;
  what_we_need_from_you?: string | null;
  expected_next_update_by?: string | null;
  cta?: unknown;
  contact?: unknown;
  portal_url?: string | null;
  language?: string | null;
}

export type AdequacyField = 'expected_next_update_by' | 'cta' | 'contact' | 'portal_url' | 'language';

/**
 * Adequacy weights: what a customer needs from an update, and how much each part counts.
 *
 * | field                     | weight | applies                                   |
 * |---------------------------|--------|-------------------------------------------|
 * | `expected_next_update_by` | 3      | always                                    |
 * | `cta`                     | 2      | whenever `what_we_need_from_you` is not null |
 * | `contact`                 | 2      | always                                    |
 * | `portal_url`              | 1      | on the `portal` channel                   |
 * | `language`                | 1      | always                                    |
 *
 * `adequacy_score` = (sum of the weights of the applicable fields present) / (sum of the weights of the
 * applicable fields), rounded to two decimals, so it is always in [0, 1]. `adequacy_missing` names the
 * applicable fields that are absent (null or not sent), in the order of this table.
 * Mirrored in docs/claims.md.
 */
export const ADEQUACY_WEIGHTS: readonly { field: AdequacyField; weight: number; applies: (update: AdequacyInput) => boolean }[] = [
  { field: 'expected_next_update_by', weight: 3, applies: () => true },
  { field: 'cta', weight: 2, applies: (update) => update.what_we_need_from_you != null },
  { field: 'contact', weight: 2, applies: () => true },
  { field: 'portal_url', weight: 1, applies: (update) => update.channel === 'portal' },
  { field: 'language', weight: 1, applies: () => true },
];

/**
 * The score and what is missing. `alsoApplying` counts criteria as applicable whatever the update says: the
 * workbench composer counts the call to action from the start, until the adjuster says nothing is needed from the
 * customer, so that filling "what we need" never lowers its meter (docs/claims.md, "Status update adequacy").
 */
export function computeAdequacy(
  update: AdequacyInput,
  alsoApplying: readonly AdequacyField[] = [],
): { adequacy_score: number; adequacy_missing: AdequacyField[] } {
  let applicable = 0;
  let given = 0;
  const missing: AdequacyField[] = [];
  for (const { field, weight, applies } of ADEQUACY_WEIGHTS) {
    if (!applies(update) && !alsoApplying.includes(field)) continue;
    applicable += weight;
    if (update[field] != null) given += weight;
    else missing.push(field);
  }
  const score = applicable === 0 ? 1 : Math.round((given / applicable) * 100) / 100;
  return { adequacy_score: score, adequacy_missing: missing };
}
