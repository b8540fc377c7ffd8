import { Router, type Request, type Response } from 'express';
import { authenticate, principalOf, requireScope } from '@platform/auth';
import { withTransactional } from '@platform/db';
import { assertValid, jsonBody, noBody } from '@platform/http';
import type { ServiceDeps } from '@platform/runtime';
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
  const router = Router();
  const policies = withTransactional(triagePolicyService(), deps.db);

  deps.openapi.operation('get', '/api/claims/triage-policy', {
    operationId: 'getTriagePolicy',
    summary: 'The triage policy in force',
    description:
      'The active version: its parameters, score bands and json-rules-engine rules, the human gates its rules can raise, and who published it when.',
    tag: 'Triage',
    security: { scope: 'claims:read' },
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
  });
  router.get(
    '/api/claims/triage-policy',
    authenticate(deps.verifyToken),
    requireScope('claims:read'),
    noBody,
    async (_req: Request, res: Response) => {
      res.json(await policies.transactional((service) => service.current()));
    },
  );

  deps.openapi.operation('post', '/api/claims/triage-policy/versions', {
    operationId: 'publishTriagePolicy',
    summary: 'Publish a new version of the triage policy',
    description:
      'The body is a whole policy under a new `version`; it is checked against the policy schema (400), then that it can run: ' +
      'every condition names a known fact and operator and rule ids are unique (422). It is stored beside the earlier versions, ' +
      'which never change (the database refuses edits), and becomes the active one for every triage run from now on; the ' +
      'publisher (JWT sub) and time are recorded with it. A version that exists already is 409.',
    tag: 'Triage',
    security: { scope: 'claims:decide' },
    requestBody: { contentType: 'application/json', schema: triagePolicySchema, schemaName: 'TriagePolicy', example: newPolicyExample },
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
  });
  router.post(
    '/api/claims/triage-policy/versions',
    authenticate(deps.verifyToken),
    requireScope('claims:decide'),
    jsonBody,
    async (req: Request, res: Response) => {
      const policy = assertValid<TriagePolicy>(triagePolicySchema, req.body);
      const published = await policies.transactional((service) => service.publish(policy, principalOf(req).sub));
      res.status(201).location('/api/claims/triage-policy').json(published);
    },
  );

  return router;
}
