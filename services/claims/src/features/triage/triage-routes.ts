import { Router, type Request, type Response } from 'express';
import { authenticate, principalOf, requireScope } from '@platform/auth';
import { withTransactional } from '@platform/db';
import { assertValid, jsonBody, noBody } from '@platform/http';
import type { ServiceDeps } from '@platform/runtime';
import type { ClaimsConfig } from '../../config';
import { escalationExample, triageExample } from '../../shared/claim-examples';
import { escalationDecisionRequestSchema, escalationSchema, type EscalationDecisionRequest } from './escalation-schemas';
import { escalationService } from './escalation-service';
import { triageResultSchema } from './triage-schemas';
import { triageService } from './triage-service';
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

/**
 * POST /api/claims/claims/{id}/run-triage (claims:write),
 * POST /api/claims/claims/{id}/escalations/{escalation_id}/decision (claims:decide),
 * GET /api/claims/triage-policy (claims:read) and POST /api/claims/triage-policy/versions (claims:decide).
 */
export function triageRoutes(deps: ServiceDeps, config: ClaimsConfig): Router {
  const router = Router();
  const triage = withTransactional(triageService(config.CLAIMS_EXCHANGE), deps.db);
  const escalations = withTransactional(escalationService(config.CLAIMS_EXCHANGE), deps.db);
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

  deps.openapi.operation('post', '/api/claims/claims/{id}/run-triage', {
    operationId: 'runTriage',
    summary: 'Run the active triage policy over a claim',
    description:
      'Evaluates the active, versioned triage policy (json-rules-engine rules stored as data; the default 2026-11-01.1 is ' +
      'installed by a migration) over facts from the claim and the database: other claims on the same policy within the ' +
      'policy window, the same phone or email on other policies, report lag, theft without a police report, the amount ' +
      'against the high-value threshold, injuries, and litigation, vulnerability and coverage words in the description. ' +
      'Every run is stored with its inputs, their SHA-256 digest (RFC 8785), the policy version and the caller. ' +
      'No gate: `auto_routed`, the claim takes the queue and moves from intake/triage to `assigned`. Any gate: ' +
      '`pending_human_decision`, the claim stays in (or moves to) `triage` with an open escalation. A claim past triage ' +
      'keeps its stage. While an escalation is open the run is refused with 409 (the problem names `escalation_id`): ' +
      'decide it first; there is never more than one open escalation per claim. Takes no body.',
    tag: 'Triage',
    security: { scope: 'claims:write' },
    responses: {
      201: { description: 'The stored triage run', schema: triageResultSchema, example: triageExample },
      401: { description: 'No credentials, or credentials that do not verify' },
      403: { description: 'The caller lacks claims:write' },
      404: { description: 'No such claim' },
      409: { description: 'The claim is closed, or has an open escalation' },
      415: { description: 'A body was sent; this operation takes none' },
      503: { description: 'The database is unavailable, or no triage policy is active' },
    },
  });
  router.post(
    '/api/claims/claims/:id/run-triage',
    authenticate(deps.verifyToken),
    requireScope('claims:write'),
    noBody,
    async (req: Request, res: Response) => {
      const actor = principalOf(req).sub;
      const result = await triage.transactional((service) => service.runTriage(String(req.params.id), actor));
      res.status(201).json(result);
    },
  );

  deps.openapi.operation('post', '/api/claims/claims/{id}/escalations/{escalation_id}/decision', {
    operationId: 'decideEscalation',
    summary: 'Decide an open triage escalation',
    description:
      '`accept` routes the claim to the queue the triage run proposed (`queue` may be omitted; a different queue is 422 — ' +
      'use `override`); `override` routes it to the given `queue` (required). `rationale` is required and not blank. ' +
      'The decision is final: a second one is 409. The claim takes the queue and moves from triage to `assigned` ' +
      '(a claim already past triage keeps its stage). Recorded with the caller as decider; publishes `claim.escalation_decided`.',
    tag: 'Escalations',
    security: { scope: 'claims:decide' },
    requestBody: {
      contentType: 'application/json',
      schema: escalationDecisionRequestSchema,
      example: { decision: escalationExample.decision, rationale: escalationExample.rationale },
    },
    responses: {
      200: { description: 'The decided escalation', schema: escalationSchema, example: escalationExample },
      400: { description: 'The body is malformed or violates the schema (e.g. a blank rationale)' },
      401: { description: 'No credentials, or credentials that do not verify' },
      403: { description: 'The caller lacks claims:decide' },
      404: { description: 'No such claim, or no such escalation on it' },
      409: { description: 'The escalation was already decided, or the claim is closed' },
      415: { description: 'Content-Type is not application/json' },
      422: { description: '`accept` with a queue other than the proposed one' },
      503: { description: 'The database is unavailable' },
    },
  });
  router.post(
    '/api/claims/claims/:id/escalations/:escalation_id/decision',
    authenticate(deps.verifyToken),
    requireScope('claims:decide'),
    jsonBody,
    async (req: Request, res: Response) => {
      const body = assertValid<EscalationDecisionRequest>(escalationDecisionRequestSchema, req.body);
      const actor = principalOf(req).sub;
      const decided = await escalations.transactional((service) =>
        service.decide(String(req.params.id), String(req.params.escalation_id), body, actor),
      );
      res.status(200).json(decided);
    },
  );
  return router;
}
