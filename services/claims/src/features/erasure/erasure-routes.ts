import type { Router } from 'express';
import { principalOf } from '@platform/auth';
import { withTransactional } from '@platform/db';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import { PRIVACY_SCOPE } from '../../shared/privacy-scope';
import { erasureRequestSchema, erasureSchema, type ErasureRequest } from './erasure-schemas';
import { erasureService, type ErasureOptions } from './erasure-service';
import { erasureStore } from './erasure-store';
import { destroyErasedFiles, type ErasedFileStorage } from './erasure-sweep';

const erasureExample = {
  erasure_id: '0b9c8d7e-6f5a-4b3c-9d2e-1f0a9b8c7d6e',
  claimant_id: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170',
  claim_ids: ['3f0e6c1a-8d2b-4c55-9a71-0b6f1f2d9e41'],
  legal_basis: 'consent_withdrawn',
  reason: 'Data subject request DSR-2026-0042',
  erased_by: 'privacy-pat',
  erased_at: '2034-01-05T09:00:00.000Z',
  files_destroyed_at: '2034-01-05T09:00:00.120Z',
};

/** POST /api/claims/claimants/{claimant_id}/erasure (privacy:manage). */
export function erasureRoutes(deps: ServiceDeps, options: ErasureOptions, storage: ErasedFileStorage): Router {
  const { router, defineRoute } = featureRoutes(deps, 'Privacy');
  const erasure = withTransactional(erasureService(options), deps.db);

  defineRoute<{ body: ErasureRequest }>({
    method: 'post',
    path: '/api/claims/claimants/{claimant_id}/erasure',
    operationId: 'eraseClaimant',
    summary: "Erase a claimant's personal data",
    description:
      'Refused with 409 while any claim of the claimant is open (`claim_open`), on a standing legal hold (`legal_hold`) or kept by ' +
      'the retention policy in force (`retention_not_passed`): the problem lists `reasons`, `blocking_claims` (claim id and number, ' +
      'reason, and for retention the date it passes) and `retention_passes_at` (the latest such date). Otherwise, in one transaction: ' +
      "the claimant's data key is destroyed (what was sealed with it is unreadable), each claim's identifying fields become the " +
      'tombstone (`claimant.name` "Erased claimant", email and phone null, `loss.description` "Erased", location and police report ' +
      'number null, `claimant_erased_at` set), status-update texts to them and reopening reasons are blanked, their access tokens ' +
      'revoked (the portal link is 404), adjuster kits and intake retries deleted, an export being built fails and no download token opens an export, their name removed from the search index, ' +
      '`claim.claimant_erased` published for each claim (ids and the legal basis; never the reason or any personal data) and the ' +
      'erasure recorded (who, when, legal basis, reason). The files and the claimant’s export archives are removed from storage right after the commit and retried by ' +
      'the retention sweep until they are (`files_destroyed_at`). The audit log is untouched, so it still verifies. ' +
      'Idempotent: erasing an erased claimant is 200 with the existing record (the first erasure is 201).',
    scopes: [PRIVACY_SCOPE],
    body: {
      contentType: 'application/json',
      schema: erasureRequestSchema,
      schemaName: 'ErasureRequest',
      example: { reason: erasureExample.reason, legal_basis: erasureExample.legal_basis },
    },
    responses: {
      201: { description: 'Erased now', schema: erasureSchema, schemaName: 'ClaimantErasure', example: erasureExample },
      200: {
        description: 'Erased before: the existing record',
        schema: erasureSchema,
        schemaName: 'ClaimantErasure',
        example: erasureExample,
      },
      400: { description: 'Malformed JSON or a schema violation (no reason, an unknown legal basis)' },
      401: { description: 'No credentials, or credentials that do not verify' },
      403: { description: 'The caller lacks privacy:manage' },
      404: { description: 'No such claimant' },
      409: { description: 'A claim is open, on legal hold, or within retention: nothing was changed' },
      415: { description: 'Content-Type is not application/json' },
      503: { description: 'The database is unavailable' },
    },
    handler: async (req, res, { body }) => {
      const claimantId = String(req.params.claimant_id);
      const result = await erasure.transactional((service) => service.erase(claimantId, body, principalOf(req).sub));
      if (!result.created) return void res.status(200).json(result.erasure);
      try {
        await destroyErasedFiles(deps, storage, result.erasure.erasure_id);
      } catch (error) {
        deps.logger.warn(
          { err: error, erasure_id: result.erasure.erasure_id },
          'erased files not yet removed; the retention sweep retries',
        );
      }
      res.status(201).json((await erasureStore(deps.db).erasureOf(result.erasure.claimant_id)) ?? result.erasure);
    },
  });
  return router;
}
