import { Router } from 'express';
import { noBody } from '@platform/http';
import type { ServiceDeps } from '@platform/runtime';
import type { ClaimsConfig } from '../../config';
import { scanNotice } from '../attachments/attachments-service';
import { listAttachments } from '../attachments/attachments-store';
import { claimIds, requiredDocumentsExample, statusUpdateExample } from '../claims/claim-examples';
import { claimOpenedBy, requireClaimantToken } from '../../shared/claimant-access';
import { statusUpdatesStore } from '../status-updates/status-updates-store';
import { claimantStatusSchema } from './claimant-status-schemas';

export const CLAIMANT_STATUS_PATH = '/api/claims/public/claims/:id/status';

export function claimantStatusRoutes(deps: ServiceDeps, _config: ClaimsConfig): Router {
  const router = Router();

  router.get(CLAIMANT_STATUS_PATH, noBody, async (req, res) => {
    const token = requireClaimantToken(req);
    const claim = await claimOpenedBy(deps.db, String(req.params.id), token);
    const latest = await statusUpdatesStore(deps.db).latestOfClaim(claim.claim_id);
    const attachments = await listAttachments(deps.db, claim.claim_id);
    res.setHeader('Cache-Control', 'no-store');
    res.json({
      claim_id: claim.claim_id,
      claim_number: claim.claim_number,
      stage: claim.stage,
      received_at: claim.received_at,
      required_documents: claim.required_documents,
      attachments: attachments.map(({ attachment_id, filename, document_type, received_at, scan_status }) => ({
        attachment_id, filename, document_type, received_at, scan_status, scan_notice: scanNotice(scan_status),
      })),
      latest_update: latest?.update ?? null,
    });
  });

  deps.openapi.operation('get', '/api/claims/public/claims/{id}/status', {
    operationId: 'getClaimStatus',
    summary: "A claimant's view of their claim",
    tag: 'Claimant status',
    security: 'claimant',
    responses: {
      200: { description: 'Stage, checklist, the files sent with their virus scan status, and the latest status update', schema: claimantStatusSchema,
        example: {
          claim_id: claimIds.CLAIM_ID,
          claim_number: 'CLM-2026-000123',
          stage: 'inspection',
          received_at: '2026-11-22T10:00:00Z',
          required_documents: requiredDocumentsExample,
          attachments: [{ attachment_id: claimIds.ATTACHMENT_ID, filename: 'rear-bumper.jpg', document_type: 'photos_of_damage', received_at: '2026-11-22T10:05:00Z', scan_status: 'clean', scan_notice: null }],
          latest_update: statusUpdateExample,
        },
      },
      401: { description: 'No access token' },
      404: { description: 'No such claim, or the token does not open it (indistinguishable)' },
      503: { description: 'The database is unavailable' },
    },
  });
  return router;
}
