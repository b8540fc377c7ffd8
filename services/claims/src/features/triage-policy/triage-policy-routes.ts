import type { Router } from 'express';
import { principalOf } from '@platform/auth';
import { withTransactional } from '@platform/db';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import { DEFAULT_TRIAGE_POLICY } from './default-policy';
import { triagePolicySchema, type TriagePolicy } from './triage-policy';
import { publishedTriagePolicySchema } from './triage-policy-schemas';
import { triagePolicyService } from './triage-policy-service';

/** A new version as its publisher would send it: the default policy with a higher threshold for high value. */
const newPolicyExample: TriagePolicy = {
  ...DEFAULT_TRIAGE_POLICY,
  version: '2026-12-01.1',
  description: 'High value from 30000.00',
  parameters: { ...DEFAULT_TRIAGE_POLICY.parameters, high_value_amount: '30000.00' },
};
const publishedExample = {
  ...newPolicyExample,
  gates: ['injury', 'high_value', 'fraud_indicator', 'litigation', 'vulnerable_customer', 'coverage_question'],
  active: true,
  published_by: 'supervisor-sam',
  published_at: '2026-12-01T09:00:00Z',
};

/** GET /api/claims/triage-policy (claims:read) and POST /api/claims/triage-policy/versions (claims:decide). */
export function triagePolicyRoutes(deps: ServiceDeps): Router {
  const { router, defineRoute } = featureRoutes(deps, 'Triage');
  const policies = withTransactional(triagePolicyService(), deps.db);

  defineRoute({
    method: 'get',
    path: '/api/claims/triage-policy',
    operationId: 'getTriagePolicy',
    summary: 'The triage policy in force',
    description:
      'The active version: its parameters, score bands and json-rules-engine rules, the human gates its rules can raise, and who published it when.',
    scopes: ['claims:read'],
    responses: {
      200: {
        description: 'The active triage policy',
        schema: publishedTriagePolicySchema,
        schemaName: 'PublishedTriagePolicy',
        example: publishedExample,
      },
      401: { description: 'No credentials, or credentials that do not verify' },
      403: { description: 'The caller lacks claims:read' },
      503: { description: 'The database is unavailable, or no triage policy is active' },
    },
    handler: async (_req, res) => {
      res.json(await policies.transactional((service) => service.current()));
    },
  });

  defineRoute<{ body: TriagePolicy }>({
    method: 'post',
    path: '/api/claims/triage-policy/versions',
    operationId: 'publishTriagePolicy',
    summary: 'Publish a new version of the triage policy',
    description:
      'The body is a whole policy under a new `version`; it is checked against the policy schema (400), then that it can run: ' +
      'every condition names a known fact and operator and rule ids are unique (422). It is stored beside the earlier versions, ' +
      'which never change (the database refuses edits), and becomes the active one for every triage run from now on; the ' +
      'publisher (JWT sub) and time are recorded with it. A version that exists already is 409.',
    scopes: ['claims:decide'],
    body: { contentType: 'application/json', schema: triagePolicySchema, schemaName: 'TriagePolicy', example: newPolicyExample },
    responses: {
      201: {
        description: 'The published, now active, version',
        schema: publishedTriagePolicySchema,
        schemaName: 'PublishedTriagePolicy',
        example: publishedExample,
        headers: { Location: 'GET /api/claims/triage-policy' },
      },
      400: { description: 'The body is malformed or does not match the policy schema' },
      401: { description: 'No credentials, or credentials that do not verify' },
      403: { description: 'The caller lacks claims:decide' },
      409: { description: 'This version is already published' },
      415: { description: 'Content-Type is not application/json' },
      422: { description: 'The policy could not run: an unknown fact or operator, or a repeated rule id' },
      503: { description: 'The database is unavailable' },
    },
    handler: async (req, res, { body: policy }) => {
      const published = await policies.transactional((service) => service.publish(policy, principalOf(req).sub));
      res.status(201).location('/api/claims/triage-policy').json(published);
    },
  });

  return router;
}
