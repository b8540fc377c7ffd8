import type { Router } from 'express';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import type { ClaimsConfig } from '../../config';
import { claimIds, requiredDocumentsExample, statusUpdateExample } from '../../shared/claim-examples';
import { requireClaimantToken } from '../../shared/claimant-access';
import { claimantStatusQuerySchema, claimantStatusSchema, type ClaimantStatusQuery } from './claimant-status-schemas';
import { claimantStatusService } from './claimant-status-service';
import { claimantPrivacyFor } from '../claimants';

export function claimantStatusRoutes(deps: ServiceDeps, config: ClaimsConfig): Router {
  const claimantStatus = claimantStatusService(config.CLAIMS_CONTACT_NAME, claimantPrivacyFor(deps, config).keys)(deps.db);
  const { router, defineRoute } = featureRoutes(deps, 'Claimant status');

  defineRoute<{ query: ClaimantStatusQuery }>({
    method: 'get',
    path: '/api/claims/public/claims/{id}/status',
    operationId: 'getClaimStatus',
    summary: "A claimant's view of their claim",
    description:
      'The history pages newest first: pass `history.next_cursor` as `cursor` for older updates. An unknown or malformed parameter is 400.',
    caller: 'claimant',
    query: claimantStatusQuerySchema,
    responses: {
      200: {
        description:
          'Stage, checklist, the files sent with their virus scan status, the latest status update and a page of every update sent',
        schema: claimantStatusSchema,
        example: {
          claim_id: claimIds.CLAIM_ID,
          claim_number: 'CLM-2026-000123',
          stage: 'inspection',
          stages_passed: ['intake', 'triage', 'assigned'],
          closing_reason: null,
          received_at: '2026-11-22T10:00:00Z',
          contact_name: 'Ann Adjuster',
          required_documents: requiredDocumentsExample,
          attachments: [
            {
              attachment_id: claimIds.ATTACHMENT_ID,
              filename: 'rear-bumper.jpg',
              content_type: 'image/jpeg',
              size_bytes: 482113,
              document_type: 'photos_of_damage',
              received_at: '2026-11-22T10:05:00Z',
              scan_status: 'clean',
              scan_notice: null,
            },
          ],
          latest_update: statusUpdateExample,
          history: {
            items: [
              {
                update_id: '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f',
                sent_at: '2026-11-22T10:00:00Z',
                language_fallback_from: null,
                update: statusUpdateExample,
              },
            ],
            next_cursor: null,
          },
          payments: [{ amount: { amount: '1234.50', currency: 'USD' }, paid_on: '2026-11-28', method: 'eft' }],
        },
      },
      400: { description: 'An unknown or malformed query parameter, or a cursor this service did not issue' },
      401: { description: 'No access token' },
      404: { description: 'No such claim, or the token does not open it (indistinguishable)' },
      503: { description: 'The database is unavailable' },
    },
    handler: async (req, res, { query }) => {
      const token = requireClaimantToken(req);
      const status = await claimantStatus.status(String(req.params.id), token, query);
      res.setHeader('Cache-Control', 'no-store');
      res.json(status);
    },
  });
  return router;
}
