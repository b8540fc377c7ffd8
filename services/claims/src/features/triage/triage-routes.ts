import type { Router } from 'express';
import { principalOf } from '@platform/auth';
import { withTransactional } from '@platform/db';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import type { ClaimsConfig } from '../../config';
import { triageExample } from '../../shared/claim-examples';
import { triageResultSchema } from './triage-schemas';
import { triageService } from './triage-service';
import { claimantPrivacyFor } from '../claimants';

/** POST /api/claims/claims/{id}/run-triage (claims:write). */
export function triageRoutes(deps: ServiceDeps, config: ClaimsConfig): Router {
  const { router, defineRoute } = featureRoutes(deps, 'Triage');
  const triage = withTransactional(triageService(config.CLAIMS_EXCHANGE, claimantPrivacyFor(deps, config).keys), deps.db);

  defineRoute({
    method: 'post',
    path: '/api/claims/claims/{id}/run-triage',
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
    scopes: ['claims:write'],
    responses: {
      201: { description: 'The stored triage run', schema: triageResultSchema, example: triageExample },
      401: { description: 'No credentials, or credentials that do not verify' },
      403: { description: 'The caller lacks claims:write' },
      404: { description: 'No such claim' },
      409: { description: 'The claim is closed, or has an open escalation' },
      415: { description: 'A body was sent; this operation takes none' },
      503: { description: 'The database is unavailable, or no triage policy is active' },
    },
    handler: async (req, res) => {
      const actor = principalOf(req).sub;
      const result = await triage.transactional((service) => service.runTriage(String(req.params.id), actor));
      res.status(201).json(result);
    },
  });

  return router;
}
