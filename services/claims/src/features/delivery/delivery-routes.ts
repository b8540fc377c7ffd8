import type { Router } from 'express';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import type { ClaimsConfig } from '../../config';
import { claimExample, statusUpdateExample } from '../../shared/claim-examples';
import { claimDeliveriesResponseSchema } from './delivery-schemas';
import { deliveryService } from './delivery-service';

/** GET /api/claims/claims/{id}/deliveries (claims:read) — every message sent for the claim and how its delivery went. */
export function deliveryRoutes(deps: ServiceDeps, _config: ClaimsConfig): Router {
  const { router, defineRoute } = featureRoutes(deps, 'Claims');
  const deliveries = deliveryService()(deps.db);

  defineRoute({
    method: 'get',
    path: '/api/claims/claims/{id}/deliveries',
    operationId: 'listClaimDeliveries',
    summary: 'Every message sent for a claim and its delivery status',
    description:
      'One entry per message: each status update on its channel (the acknowledgement included) and each new access link, oldest first. Email goes through SMTP, SMS ' +
      'through the SMS webhook; a failed attempt is retried with backoff (`retrying`, with `last_error` and `next_attempt_at`) ' +
      'up to 5 attempts, then `failed`. `GET /api/claims/claims?delivery_failed=true` lists the claims with a failed delivery.',
    scopes: ['claims:read'],
    responses: {
      200: {
        description: "The claim's deliveries",
        schema: claimDeliveriesResponseSchema,
        example: {
          items: [
            {
              delivery_id: '0b6f1d7e-3c2a-4e5f-9a8b-7c6d5e4f3a2b',
              kind: 'status_update',
              update_id: 'e7f8a9b0-c1d2-4e3f-8a4b-5c6d7e8f9a0b',
              channel: statusUpdateExample.channel,
              status: 'sent',
              attempts: 1,
              last_error: null,
              provider_message_id: `<0b6f1d7e-3c2a-4e5f-9a8b-7c6d5e4f3a2b@${claimExample.claim_number.toLowerCase()}.example>`,
              next_attempt_at: null,
              created_at: '2026-11-22T13:00:00Z',
              completed_at: '2026-11-22T13:00:01Z',
            },
            {
              delivery_id: '1c7a2e8f-4d3b-4f6a-8b9c-8d7e6f5a4b3c',
              kind: 'status_update',
              update_id: 'f8a9b0c1-d2e3-4f4a-9b5c-6d7e8f9a0b1c',
              channel: 'email',
              status: 'retrying',
              attempts: 2,
              last_error: '550 5.1.1 Mailbox unavailable',
              provider_message_id: null,
              next_attempt_at: '2026-11-23T09:00:04Z',
              created_at: '2026-11-23T09:00:00Z',
              completed_at: null,
            },
          ],
        },
      },
      401: { description: 'No or invalid credentials' },
      403: { description: 'The caller lacks claims:read' },
      404: { description: 'No such claim' },
      503: { description: 'The database is unavailable' },
    },
    handler: async (req, res) => {
      res.json(await deliveries.listOfClaim(String(req.params.id)));
    },
  });
  return router;
}
