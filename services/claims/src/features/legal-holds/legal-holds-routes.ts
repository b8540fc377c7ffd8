import type { Router } from 'express';
import { principalOf } from '@platform/auth';
import { withTransactional } from '@platform/db';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import type { ClaimsConfig } from '../../config';
import { PRIVACY_SCOPE } from '../../shared/privacy-scope';
import { legalHoldReasonSchema, legalHoldSchema, legalHoldsSchema, type LegalHoldReason } from './legal-holds-schemas';
import { legalHoldsService } from './legal-holds-service';

const holdExample = {
  hold_id: '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  claim_id: '3f0e6c1a-8d2b-4c55-9a71-0b6f1f2d9e41',
  reason: 'Litigation notice 2026-114 received from counsel',
  placed_by: 'privacy-pat',
  placed_at: '2026-12-01T09:00:00.000Z',
  released: null,
};

const common = {
  401: { description: 'No credentials, or credentials that do not verify' },
  403: { description: 'The caller lacks privacy:manage' },
  404: { description: 'No such claim' },
  503: { description: 'The database is unavailable' },
};

/** Legal holds on a claim (privacy:manage): place, list, release. */
export function legalHoldsRoutes(deps: ServiceDeps, config: ClaimsConfig): Router {
  const { router, defineRoute } = featureRoutes(deps, 'Privacy');
  const holds = withTransactional(legalHoldsService(config.CLAIMS_EXCHANGE), deps.db);

  defineRoute<{ body: LegalHoldReason }>({
    method: 'post',
    path: '/api/claims/claims/{id}/legal-holds',
    operationId: 'placeLegalHold',
    summary: 'Place a legal hold on a claim',
    description:
      "While any hold on any of a claimant's claims stands, neither an erasure request nor the retention sweep erases the claimant " +
      '(erasure answers 409 naming the held claims). A claim can hold several; each stands until a person releases it. ' +
      'Publishes `claim.legal_hold_placed` (the hold id and who; the reason stays here and in the claim timeline).',
    scopes: [PRIVACY_SCOPE],
    body: {
      contentType: 'application/json',
      schema: legalHoldReasonSchema,
      schemaName: 'LegalHoldReason',
      example: { reason: holdExample.reason },
    },
    responses: {
      201: { description: 'The hold, standing', schema: legalHoldSchema, schemaName: 'LegalHold', example: holdExample },
      400: { description: 'Malformed JSON or a schema violation (no reason)' },
      ...common,
      415: { description: 'Content-Type is not application/json' },
    },
    handler: async (req, res, { body }) => {
      res.status(201).json(await holds.transactional((s) => s.place(String(req.params.id), body.reason, principalOf(req))));
    },
  });

  defineRoute({
    method: 'get',
    path: '/api/claims/claims/{id}/legal-holds',
    operationId: 'listLegalHolds',
    summary: "A claim's legal holds, standing and released, oldest first",
    scopes: [PRIVACY_SCOPE],
    responses: {
      200: { description: 'The holds', schema: legalHoldsSchema, example: { items: [holdExample] } },
      ...common,
    },
    handler: async (req, res) => {
      res.json({ items: await holds.transactional((s) => s.list(String(req.params.id))) });
    },
  });

  defineRoute<{ body: LegalHoldReason }>({
    method: 'post',
    path: '/api/claims/claims/{id}/legal-holds/{hold_id}/release',
    operationId: 'releaseLegalHold',
    summary: 'Release a legal hold',
    description:
      'A person decides: who (JWT sub) and why are recorded on the hold and in the claim timeline. Publishes ' +
      '`claim.legal_hold_released`. A hold released already is 409; the hold stays listed, released.',
    scopes: [PRIVACY_SCOPE],
    body: {
      contentType: 'application/json',
      schema: legalHoldReasonSchema,
      schemaName: 'LegalHoldReason',
      example: { reason: 'Litigation settled' },
    },
    responses: {
      200: {
        description: 'The hold, released',
        schema: legalHoldSchema,
        schemaName: 'LegalHold',
        example: { ...holdExample, released: { by: 'privacy-pat', at: '2027-03-01T09:00:00.000Z', reason: 'Litigation settled' } },
      },
      400: { description: 'Malformed JSON or a schema violation (no reason)' },
      ...common,
      404: { description: 'No such claim, or no such hold on it' },
      409: { description: 'The hold was released already' },
      415: { description: 'Content-Type is not application/json' },
    },
    handler: async (req, res, { body }) => {
      res.json(
        await holds.transactional((s) => s.release(String(req.params.id), String(req.params.hold_id), body.reason, principalOf(req))),
      );
    },
  });
  return router;
}
