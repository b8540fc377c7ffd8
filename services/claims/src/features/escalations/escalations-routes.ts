import type { Router } from 'express';
import { principalOf } from '@platform/auth';
import { withTransactional } from '@platform/db';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import type { ClaimsConfig } from '../../config';
import { escalationExample } from '../../shared/claim-examples';
import { escalationDecisionRequestSchema, escalationSchema, type EscalationDecisionRequest } from './escalation-schemas';
import { escalationService } from './escalation-service';

/** POST /api/claims/claims/{id}/escalations/{escalation_id}/decision (claims:decide). */
export function escalationsRoutes(deps: ServiceDeps, config: ClaimsConfig): Router {
  const { router, defineRoute } = featureRoutes(deps, 'Escalations');
  const escalations = withTransactional(escalationService(config.CLAIMS_EXCHANGE), deps.db);

  defineRoute<{ body: EscalationDecisionRequest }>({
    method: 'post',
    path: '/api/claims/claims/{id}/escalations/{escalation_id}/decision',
    operationId: 'decideEscalation',
    summary: 'Decide an open triage escalation',
    description:
      '`accept` routes the claim to the queue the triage run proposed (`queue` may be omitted; a different queue is 422 — ' +
      'use `override`); `override` routes it to the given `queue` (required). `rationale` is required and not blank. ' +
      'The decision is final: a second one is 409. The claim takes the queue and moves from triage to `assigned` ' +
      '(a claim already past triage keeps its stage). Recorded with the caller as decider; publishes `claim.escalation_decided`.',
    scopes: ['claims:decide'],
    body: {
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
    handler: async (req, res, { body }) => {
      const actor = principalOf(req).sub;
      const decided = await escalations.transactional((service) =>
        service.decide(String(req.params.id), String(req.params.escalation_id), body, actor),
      );
      res.status(200).json(decided);
    },
  });
  return router;
}
