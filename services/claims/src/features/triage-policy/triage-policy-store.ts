import type { Knex } from '@platform/db';
import type { TriagePolicy } from './triage-policy';

/** The versions of the triage policy; one is active. */
export function triagePolicyStore(db: Knex) {
  return {
    /** The active policy, or undefined when none is active. */
    async activePolicy(): Promise<TriagePolicy | undefined> {
      const row = await db('triage_policies').where({ active: true }).first('version', 'description', 'parameters', 'score_bands', 'rules');
      return row
        ? { version: row.version, description: row.description, parameters: row.parameters, score_bands: row.score_bands, rules: row.rules }
        : undefined;
    },

    /** The active version with who published it and when, or undefined when none is active. */
    async activePublication(): Promise<{ policy: TriagePolicy; published_by: string; published_at: string } | undefined> {
      const row = await db('triage_policies')
        .where({ active: true })
        .first('version', 'description', 'parameters', 'score_bands', 'rules', 'published_by', 'created_at');
      if (!row) return undefined;
      return {
        policy: {
          version: row.version,
          description: row.description,
          parameters: row.parameters,
          score_bands: row.score_bands,
          rules: row.rules,
        },
        published_by: row.published_by,
        published_at: new Date(row.created_at).toISOString(),
      };
    },

    /** Locks the active version's row until the transaction ends, so publications happen one after another. */
    async lockActivePolicy(): Promise<void> {
      await db('triage_policies').where({ active: true }).forUpdate().first('version');
    },

    async policyVersionExists(version: string): Promise<boolean> {
      return (await db('triage_policies').where({ version }).first('version')) !== undefined;
    },

    /** Stores a new version as the active one; the previous version stays as it was, only no longer active. */
    async publishPolicy(policy: TriagePolicy, publishedBy: string): Promise<void> {
      await db('triage_policies').where({ active: true }).update({ active: false });
      await db('triage_policies').insert({
        version: policy.version,
        active: true,
        description: policy.description,
        parameters: JSON.stringify(policy.parameters),
        score_bands: JSON.stringify(policy.score_bands),
        rules: JSON.stringify(policy.rules),
        published_by: publishedBy,
      });
    },
  };
}
