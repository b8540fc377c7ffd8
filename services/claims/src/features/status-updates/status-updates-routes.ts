import { Router, type Request, type Response } from 'express';
import { authenticate, principalOf, requireAnyScope, requireScope } from '@platform/auth';
import { withTransactional } from '@platform/db';
import { assertValid, jsonBody } from '@platform/http';
import type { ServiceDeps } from '@platform/runtime';
import type { ClaimsConfig } from '../../config';
import { statusUpdateRequestSchema, statusUpdateSchema, type StatusUpdateRequest } from './status-updates-schemas';
import { DECIDE_SCOPE, WRITE_SCOPE } from '../../shared/stage-machine';
import { statusUpdateService } from './status-updates-service';
import { closingStatusUpdateRequestExample, statusUpdateExample, statusUpdateRequestExample } from '../claims/claim-examples';

/** Called once a status update has committed, so the delivery worker looks at the queue at once. */
export type DeliveryKick = () => void;

/**
 * POST /api/claims/claims/{id}/status-updates (claims:write; claims:decide, which alone suffices, for settlement,
 * closed and reopening) and GET …/status-updates/{update_id} (claims:read), where the Location points.
 */
export function statusUpdatesRoutes(deps: ServiceDeps, config: ClaimsConfig, kickDelivery: DeliveryKick): Router {
  const router = Router();
  const updates = withTransactional(statusUpdateService(config.CLAIMS_EXCHANGE, config.DEFAULT_UPDATE_CADENCE_DAYS), deps.db);

  deps.openapi.operation('post', '/api/claims/claims/{id}/status-updates', {
    operationId: 'createStatusUpdate',
    summary: "Post a status update to the claimant and move the claim's stage",
    description:
      'The body is the StatusUpdate without `adequacy_score` and `adequacy_missing`, which the service computes ' +
      '(sending them is 400; weights in docs/claims.md). `claim_id` may be omitted; if sent it must equal the path id ' +
      '(else 422). `expected_next_update_by` is a real date, today (UTC) or later (else 400). `language` is canonicalised. ' +
      'The stage follows the lifecycle `intake → triage → assigned → {inspection, estimate, waiting_on_customer} ⇄ each other ' +
      '→ settlement → closed`, and any open stage may close; the same stage is a progress update; anything else is 409, as is any update to a closed claim ' +
      'other than reopening it (into assigned, inspection, estimate, waiting_on_customer or settlement), and leaving `triage` ' +
      'or closing while an escalation is open (only its decision routes the claim; the problem names `escalation_id`). Moving into ' +
      '`settlement` or `closed`, a progress update in `settlement`, and reopening need `claims:decide`, which suffices alone for them (403 without); every other update needs `claims:write`. ' +
      'An update into `closed` names its `closing_reason` (`paid`, `denied`, `withdrawn`, `duplicate`; none has to pass through settlement), ' +
      'a denial also its `closing_rationale` (both only with `closed`, else 400); they are kept on the claim (`closing`) until it is reopened, ' +
      'which clears them while the closing update and the timeline keep them. Closing a claim as denied: ' +
      `\`${JSON.stringify(closingStatusUpdateRequestExample)}\`. ` +
      "An `email` or `sms` update for a claimant without that contact is 422. The update replaces the claim's promise " +
      '(`next_update_due`: the start of the day after `expected_next_update_by`), is queued for delivery on its channel ' +
      '(portal: delivered by being stored) and publishes `claim.status_updated`.',
    tag: 'Status updates',
    security: { anyScope: [WRITE_SCOPE, DECIDE_SCOPE] },
    requestBody: { contentType: 'application/json', schema: statusUpdateRequestSchema, example: statusUpdateRequestExample },
    responses: {
      201: {
        description: 'The stored StatusUpdate: exactly its thirteen fields',
        schema: statusUpdateSchema,
        schemaName: 'StatusUpdate',
        example: statusUpdateExample,
        headers: { Location: 'The status update' },
      },
      400: {
        description:
          'Malformed JSON, a schema violation, adequacy fields sent, a past or impossible date, a bad language tag, closing without a reason, a denial without a rationale, a closing reason with another stage',
      },
      401: { description: 'No credentials, or credentials that do not verify' },
      403: { description: 'The caller lacks claims:decide for settlement, closing or reopening, or claims:write for any other stage' },
      404: { description: 'No such claim' },
      409: {
        description:
          'The lifecycle forbids the stage (including any non-reopening update to a closed claim), or the claim would leave triage or close while an escalation is open',
      },
      415: { description: 'Content-Type is not application/json' },
      422: { description: 'claim_id names another claim, or the channel has no contact for this claimant' },
      503: { description: 'The database is unavailable' },
    },
  });
  router.post(
    '/api/claims/claims/:id/status-updates',
    authenticate(deps.verifyToken),
    requireAnyScope(WRITE_SCOPE, DECIDE_SCOPE),
    jsonBody,
    async (req: Request, res: Response) => {
      const body = assertValid<StatusUpdateRequest>(statusUpdateRequestSchema, req.body);
      const principal = principalOf(req);
      const stored = await updates.transactional((service) => service.post(String(req.params.id), body, principal));
      kickDelivery();
      res.status(201).location(`/api/claims/claims/${stored.update.claim_id}/status-updates/${stored.update_id}`).json(stored.update);
    },
  );

  deps.openapi.operation('get', '/api/claims/claims/{id}/status-updates/{update_id}', {
    operationId: 'getStatusUpdate',
    summary: 'Read one status update of a claim',
    tag: 'Status updates',
    security: { scope: 'claims:read' },
    responses: {
      200: {
        description: 'The stored StatusUpdate (thirteen fields)',
        schema: statusUpdateSchema,
        schemaName: 'StatusUpdate',
        example: statusUpdateExample,
      },
      401: { description: 'No credentials, or credentials that do not verify' },
      403: { description: 'The caller lacks claims:read' },
      404: { description: 'No such claim, or no such update on it' },
      503: { description: 'The database is unavailable' },
    },
  });
  router.get(
    '/api/claims/claims/:id/status-updates/:update_id',
    authenticate(deps.verifyToken),
    requireScope('claims:read'),
    async (req: Request, res: Response) => {
      const stored = await updates.get(String(req.params.id), String(req.params.update_id));
      res.json(stored.update);
    },
  );
  return router;
}
