import type { Router } from 'express';
import { principalOf } from '@platform/auth';
import { withTransactional } from '@platform/db';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import type { ClaimsConfig } from '../../config';
import {
  closingRequestSchema,
  closingSchema,
  statusUpdateRequestSchema,
  type ClosingRequest,
  type StatusUpdateRequest,
} from './status-updates-schemas';
import { statusUpdateSchema } from '../../shared/status-update';
import { DECIDE_SCOPE, WRITE_SCOPE } from '../../shared/stage-machine';
import { statusUpdateService } from './status-updates-service';
import { claimantPrivacyFor } from '../claimants';
import { closingExample, closingRequestExample, statusUpdateExample, statusUpdateRequestExample } from '../../shared/claim-examples';

/** Called once a status update has committed, so the delivery worker looks at the queue at once. */
export type DeliveryKick = () => void;

/**
 * POST /api/claims/claims/{id}/status-updates (claims:write; claims:decide, which alone suffices, for settlement
 * and reopening), POST …/closing (claims:decide: the reason and a status update into closed) and
 * GET …/status-updates/{update_id} (claims:read), where the Location points.
 */
export function statusUpdatesRoutes(deps: ServiceDeps, config: ClaimsConfig, kickDelivery: DeliveryKick): Router {
  const { router, defineRoute } = featureRoutes(deps, 'Status updates');
  const updates = withTransactional(
    statusUpdateService(
      config.CLAIMS_EXCHANGE,
      config.DEFAULT_UPDATE_CADENCE_DAYS,
      config.PUBLIC_BASE_URL,
      claimantPrivacyFor(deps, config).keys,
    ),
    deps.db,
  );

  defineRoute<{ body: StatusUpdateRequest }>({
    method: 'post',
    path: '/api/claims/claims/{id}/status-updates',
    operationId: 'createStatusUpdate',
    summary: "Post a status update to the claimant and move the claim's stage",
    description:
      'The body is the StatusUpdate without `adequacy_score` and `adequacy_missing`, which the service computes ' +
      '(sending them is 400; weights in docs/claims.md). `claim_id` may be omitted; if sent it must equal the path id ' +
      '(else 422). `expected_next_update_by` is a real date, today (UTC) or later (else 400). `language` is canonicalised. ' +
      'The stage follows the lifecycle `intake → triage → assigned → {inspection, estimate, waiting_on_customer} ⇄ each other ' +
      '→ settlement → closed`; the same stage is a progress update; anything else is 409, as is any update to a closed claim ' +
      'other than reopening it (into assigned, inspection, estimate, waiting_on_customer or settlement), and leaving `triage` ' +
      'while an escalation is open (only its decision routes the claim; the problem names `escalation_id`). Moving into ' +
      '`settlement`, a progress update in `settlement`, and reopening need `claims:decide`, which suffices alone for them (403 without); every other update needs `claims:write`. ' +
      'The body is exactly the StatusUpdate: unknown fields (a `contact.name`, a `closing_reason`) are 400. A claim closes only ' +
      'through `POST …/closing`, which records why: an update into `closed` here is 422 (409 when the claim is already closed). ' +
      "An `email` or `sms` update for a claimant without that contact is 422. The update replaces the claim's promise " +
      '(`next_update_due`: the start of the day after `expected_next_update_by`), is queued for delivery on its channel ' +
      '(portal: delivered by being stored) and publishes `claim.status_updated`.',
    scopes: [WRITE_SCOPE, DECIDE_SCOPE],
    body: { contentType: 'application/json', schema: statusUpdateRequestSchema, example: statusUpdateRequestExample },
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
          'Malformed JSON, a schema violation (any field or key the StatusUpdate does not list), adequacy fields sent, a past or impossible date, a bad language tag',
      },
      401: { description: 'No credentials, or credentials that do not verify' },
      403: { description: 'The caller lacks claims:decide for settlement or reopening, or claims:write for any other stage' },
      404: { description: 'No such claim' },
      409: {
        description:
          'The lifecycle forbids the stage (including any non-reopening update to a closed claim), or the claim would leave triage while an escalation is open',
      },
      415: { description: 'Content-Type is not application/json' },
      422: {
        description:
          'claim_id names another claim, the channel has no contact for this claimant, or the stage is `closed` (closing is POST …/closing)',
      },
      503: { description: 'The database is unavailable' },
    },
    handler: async (req, res, { body }) => {
      const principal = principalOf(req);
      const stored = await updates.transactional((service) => service.post(String(req.params.id), body, principal));
      kickDelivery();
      res.status(201).location(`/api/claims/claims/${stored.update.claim_id}/status-updates/${stored.update_id}`).json(stored.update);
    },
  });

  defineRoute<{ body: ClosingRequest }>({
    method: 'post',
    path: '/api/claims/claims/{id}/closing',
    operationId: 'closeClaim',
    summary: 'Close a claim with its reason, telling the claimant with a status update into closed',
    description:
      'Closing is a decision of its own (as GitHub closes an issue with a `state_reason`, and Stripe closes a dispute by an action ' +
      'endpoint), so the StatusUpdate stays exactly its thirteen fields: `reason` (`paid`, `denied`, `withdrawn`, `duplicate`; none has ' +
      'to pass through settlement), `rationale` (required for `denied`; kept on the claim and its internal timeline, never sent to the ' +
      'claimant by the service) and `status_update`, the ordinary StatusUpdate of `POST …/status-updates` with `stage: closed` ' +
      '(another stage is 400 at `/status_update/stage`). It is validated, stored, queued for delivery and published as ' +
      '`claim.status_updated` exactly like any status update, in one transaction with the closing (`claim.closed`, with the reason). ' +
      'Reopening is an ordinary status update into an open stage; it clears the closing, which the timeline keeps. ' +
      `Closing a claim as denied: \`${JSON.stringify(closingRequestExample)}\`.`,
    scopes: [DECIDE_SCOPE],
    body: { contentType: 'application/json', schema: closingRequestSchema, example: closingRequestExample },
    responses: {
      201: {
        description: 'The claim is closed: its reason and rationale, and the stored StatusUpdate (exactly its thirteen fields)',
        schema: closingSchema,
        schemaName: 'Closing',
        example: closingExample,
        headers: { Location: 'The status update into closed' },
      },
      400: {
        description:
          'Malformed JSON, a schema violation (an unknown reason, a status_update of another stage than closed, any key the StatusUpdate does not list), a denial without a rationale, a past date, a bad language tag',
      },
      401: { description: 'No credentials, or credentials that do not verify' },
      403: { description: 'The caller lacks claims:decide' },
      404: { description: 'No such claim' },
      409: {
        description:
          'The claim is already closed, an escalation is still open, a payment awaits approval, or `paid` with nothing paid (closing sets the remaining open reserves to zero, recorded as reserve changes)',
      },
      415: { description: 'Content-Type is not application/json' },
      422: { description: 'status_update.claim_id names another claim, or its channel has no contact for this claimant' },
      503: { description: 'The database is unavailable' },
    },
    handler: async (req, res, { body }) => {
      const principal = principalOf(req);
      const { stored, closing } = await updates.transactional((service) => service.close(String(req.params.id), body, principal));
      kickDelivery();
      res.status(201).location(`/api/claims/claims/${stored.update.claim_id}/status-updates/${stored.update_id}`).json(closing);
    },
  });

  defineRoute({
    method: 'get',
    path: '/api/claims/claims/{id}/status-updates/{update_id}',
    operationId: 'getStatusUpdate',
    summary: 'Read one status update of a claim',
    scopes: ['claims:read'],
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
    handler: async (req, res) => {
      const stored = await updates.get(String(req.params.id), String(req.params.update_id));
      res.json(stored.update);
    },
  });
  return router;
}
