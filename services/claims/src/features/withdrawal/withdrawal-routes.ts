import type { Router } from 'express';
import { withTransactional } from '@platform/db';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import { claimantContact, type ClaimsConfig } from '../../config';
import { claimIds, statusUpdateExample } from '../../shared/claim-examples';
import { requireClaimantToken } from '../../shared/claimant-access';
import { withdrawalSchema } from './withdrawal-schemas';
import { withdrawalService } from './withdrawal-service';
import { claimantPrivacyFor } from '../claimants';

/** POST /api/claims/public/claims/{id}/withdraw (claimant token) — the claimant withdraws before settlement. */
export function withdrawalRoutes(deps: ServiceDeps, config: ClaimsConfig): Router {
  const withdrawals = withTransactional(
    withdrawalService({
      exchange: config.CLAIMS_EXCHANGE,
      contact: claimantContact(config),
      keys: claimantPrivacyFor(deps, config).keys,
    }),
    deps.db,
  );
  const { router, defineRoute } = featureRoutes(deps, 'Withdrawal');

  defineRoute({
    method: 'post',
    path: '/api/claims/public/claims/{id}/withdraw',
    operationId: 'withdrawClaim',
    summary: 'The claimant withdraws their claim',
    description:
      'Closes an open claim with closing reason `withdrawn`, before settlement. The claimant is told in their language on their channel ' +
      '(the update is in the answer and the history), the claim timeline records it and `claim.withdrawn` is published. Takes no body.',
    caller: 'claimant',
    responses: {
      200: {
        description: 'The claim is closed as withdrawn',
        schema: withdrawalSchema,
        example: {
          claim_id: claimIds.CLAIM_ID,
          claim_number: 'CLM-2026-000123',
          stage: 'closed',
          closing_reason: 'withdrawn',
          withdrawn_at: '2026-11-23T09:30:00Z',
          status: {
            ...statusUpdateExample,
            stage: 'closed',
            what_happened: 'You withdrew your claim CLM-2026-000123, and we have closed it.',
            what_happens_next: 'Nothing more happens with this claim. If you withdrew it by mistake, contact us and we can reopen it.',
            what_we_need_from_you: null,
            expected_next_update_by: null,
            cta: null,
            portal_url: null,
            adequacy_score: 0.5,
            adequacy_missing: ['expected_next_update_by'],
          },
        },
      },
      401: { description: 'No access token' },
      404: { description: 'No such claim, or the token does not open it (indistinguishable)' },
      409: { description: 'The claim is in settlement or already closed' },
      503: { description: 'The database is unavailable' },
    },
    handler: async (req, res) => {
      const token = requireClaimantToken(req);
      const withdrawal = await withdrawals.transactional((service) => service.withdraw(String(req.params.id), token));
      res.setHeader('Cache-Control', 'no-store');
      res.json(withdrawal);
    },
  });
  return router;
}
