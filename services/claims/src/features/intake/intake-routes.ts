import type { Router } from 'express';
import { withTransactional } from '@platform/db';
import { compile, problems } from '@platform/http';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import { claimantContact, type ClaimsConfig } from '../../config';
import {
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENCY_KEY_RULE,
  isAcceptableIdempotencyKey,
  intakeRequestSchema,
  intakeResponseSchema,
  type IntakeRequest,
} from './intake-schemas';
import { intakeService } from './intake-service';
import { nameIndexKey } from '../claims-list';
import { claimantPrivacyFor } from '../claimants';
import { intakeRequestExample, intakeResponseExample } from '../../shared/claim-examples';

/** POST /api/claims/public/claims — first notice of loss (public; optional Idempotency-Key). */
export function intakeRoutes(deps: ServiceDeps, config: ClaimsConfig): Router {
  const privacy = claimantPrivacyFor(deps, config);
  const service = withTransactional(
    intakeService({
      exchange: config.CLAIMS_EXCHANGE,
      publicBaseUrl: config.PUBLIC_BASE_URL,
      contact: claimantContact(config),
      idempotencyRetentionHours: config.IDEMPOTENCY_RETENTION_HOURS,
      nameIndexKey: nameIndexKey(privacy, deps.dataDir),
      privacy,
    }),
    deps.db,
  );
  compile(intakeRequestSchema); // fail at start, not on the first request, if the schema is wrong
  const { router, defineRoute } = featureRoutes(deps, 'Intake');

  defineRoute<{ body: IntakeRequest }>({
    method: 'post',
    path: '/api/claims/public/claims',
    operationId: 'createClaim',
    summary: 'Report a loss (first notice of loss)',
    description:
      'Creates the claim file in one transaction: claim number, checklist, service-level dates, acknowledgement, audit entry and the claim.created event. ' +
      'With an Idempotency-Key, the same key and body answer the same 201 again (header Idempotent-Replayed: true) for IDEMPOTENCY_RETENTION_HOURS; the same key with another body is 422. ' +
      'The public intake has no caller identity, so the key is the proof of possession: only a key of at least 128 random bits is accepted (a repetitive or hand-picked one is 400), and the stored answer, access token included, is sealed under the key itself, so only the client that chose it can be answered again.',
    caller: 'public',
    parameters: [
      {
        name: 'Idempotency-Key',
        in: 'header',
        schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN.source },
        description: `At least 128 random bits: ${IDEMPOTENCY_KEY_RULE}; anything else is 400`,
      },
    ],
    body: { contentType: 'application/json', schema: intakeRequestSchema, example: intakeRequestExample },
    responses: {
      201: {
        description: 'The claim was created',
        schema: intakeResponseSchema,
        example: intakeResponseExample,
        headers: { Location: 'The claimant status URL of the claim' },
      },
      400: {
        description:
          'Malformed JSON, schema violation, unknown field, impossible or future loss date, an Idempotency-Key that is not a UUID or 128 random bits',
      },
      413: { description: 'The body exceeds 1 MiB' },
      415: { description: 'Content-Type is not application/json' },
      422: { description: 'The Idempotency-Key was used with another body' },
      503: { description: 'The database is unavailable' },
    },
    handler: async (req, res, { body }) => {
      const idempotencyKey = req.get('idempotency-key');
      if (idempotencyKey !== undefined && !isAcceptableIdempotencyKey(idempotencyKey)) {
        throw problems.badRequest(`Idempotency-Key must carry 128 random bits: ${IDEMPOTENCY_KEY_RULE}`, [
          { pointer: '/headers/idempotency-key', message: `must be ${IDEMPOTENCY_KEY_RULE}` },
        ]);
      }
      const answer = await service.transactional((intake) => intake.submit(body, idempotencyKey));
      if (answer.replayed) res.setHeader('Idempotent-Replayed', 'true');
      res.status(answer.status).location(answer.location).json(answer.body);
    },
  });
  return router;
}
