import { GATES, triagePolicySchema, type Gate, type TriagePolicy } from './triage-policy';

/**
 * GET /api/claims/triage-policy and 201 of POST …/versions: a published version as stored (the policy
 * schema's fields), the gates its rules can raise, and who published it when.
 */
export const publishedTriagePolicySchema = {
  type: 'object',
  additionalProperties: false,
  $defs: triagePolicySchema.$defs,
  required: [...triagePolicySchema.required, 'gates', 'active', 'published_by', 'published_at'],
  properties: {
    ...triagePolicySchema.properties,
    gates: {
      type: 'array',
      items: { enum: [...GATES] },
      description: 'The human gates the rules of this version can raise, in rule order',
    },
    active: { type: 'boolean', description: 'Whether this version triages claims now (exactly one is active)' },
    published_by: { type: 'string', description: 'Who published it (the JWT sub; `system:migration` for the default policy)' },
    published_at: { type: 'string', format: 'date-time' },
  },
} as const;

/** A published version: the policy, the gates its rules raise, and its publication. */
export interface PublishedTriagePolicy extends TriagePolicy {
  gates: Gate[];
  active: boolean;
  published_by: string;
  published_at: string;
}
