import type { Router } from 'express';
import type { Knex } from '@platform/db';
import { problems } from '@platform/http';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import type { ClaimsConfig } from '../../config';
import { attachmentSchema } from '../../shared/attachment';
import { accessLogStore, accessPurposeParameter, purposeRequiredResponse, readerOf } from '../access-log';
import { attachmentsStore } from '../attachments';
import { statusUpdatesStore } from '../status-updates';
import { storedStatusUpdateSchema } from './claims-schemas';
import { timelineEntrySchema } from '../../shared/timeline-entry';
import { claimSchema } from '../../shared/claim-schemas';
import {
  attachmentExample,
  claimExample,
  escalationExample,
  statusUpdateExample,
  timelineExample,
  triageExample,
} from '../../shared/claim-examples';
import { claimStore, openClaim, withoutTokenHash } from '../../shared/claim-store';
import { claimantPrivacyFor } from '../claimants';

/**
 * A part of the claim file another feature owns (triage, escalations): its JSON Schema properties are
 * spread into the response schema and what `load` returns is spread into the body.
 */
export interface ClaimFileExtension {
  properties: Record<string, object>;
  load(db: Knex, claimId: string): Promise<object>;
}

export function claimFileSchema(extensions: ClaimFileExtension[]) {
  return {
    type: 'object',
    additionalProperties: false,
    required: [
      'claim',
      'status_updates',
      'attachments',
      'timeline',
      ...extensions.flatMap((extension) => Object.keys(extension.properties)),
    ],
    properties: {
      claim: claimSchema,
      status_updates: { type: 'array', items: storedStatusUpdateSchema, description: 'Oldest first' },
      attachments: { type: 'array', items: attachmentSchema },
      timeline: { type: 'array', items: timelineEntrySchema, description: 'The internal audit timeline, oldest first' },
      ...Object.assign({}, ...extensions.map((extension) => extension.properties)),
    },
  };
}

/** GET /api/claims/claims/{id} (claims:read) — the whole claim file. */
export function claimsRoutes(deps: ServiceDeps, config: ClaimsConfig, extensions: ClaimFileExtension[] = []): Router {
  const { router, defineRoute } = featureRoutes(deps, 'Claims');
  const { keys } = claimantPrivacyFor(deps, config);

  defineRoute({
    method: 'get',
    path: '/api/claims/claims/{id}',
    operationId: 'getClaim',
    summary: 'The whole claim file',
    description:
      'The read is recorded in the claim’s access log (who, when, the `Access-Purpose` given) and published as ' +
      '`claim.personal_data_accessed` before the file is served. A sensitive claim (an injury, or a triage fraud indicator; ' +
      '`GET …/claims/{id}/sensitivity` tells without revealing anything personal) is served only with an `Access-Purpose`: ' +
      'without one the answer is 428 problem+json naming the header, and no personal data leaves the service. Compatibility ' +
      '(CONTRACT §3): every other claim is 200 for `claims:read` as before, with the purpose optional; the 428 is the one ' +
      'addition, and only for the special-category and fraud-suspected files a person must justify reading (issue 37).',
    scopes: ['claims:read'],
    parameters: [accessPurposeParameter],
    responses: {
      200: {
        description: 'Claim, status updates, attachments, internal timeline, triage and escalation',
        schema: claimFileSchema(extensions),
        example: {
          claim: claimExample,
          status_updates: [
            {
              update_id: 'e7f8a9b0-c1d2-4e3f-8a4b-5c6d7e8f9a0b',
              created_at: '2026-11-22T13:00:00Z',
              created_by: 'adjuster-alice',
              ...statusUpdateExample,
            },
          ],
          attachments: [{ ...attachmentExample, description: 'The rear bumper' }],
          timeline: timelineExample,
          triage: triageExample,
          escalation: escalationExample,
          claimant_erased_at: null,
        },
      },
      401: { description: 'No or invalid credentials' },
      400: { description: 'Access-Purpose is longer than 200 characters' },
      403: { description: 'The caller lacks claims:read' },
      404: { description: 'No such claim' },
      ...purposeRequiredResponse,
      503: { description: 'The database is unavailable' },
    },
    handler: async (req, res) => {
      const claimId = String(req.params.id);
      const reader = readerOf(req);
      const found = await claimStore(deps.db).find(claimId);
      if (!found) throw problems.notFound('No such claim');
      await accessLogStore(deps.db).record(config.CLAIMS_EXCHANGE, reader, 'claim_file', [found.claim_id]);
      const key = await keys.keyFor(found.claimant_id);
      const claim = openClaim(found, key);
      const [statusUpdates, attachments, timeline] = [
        await statusUpdatesStore(deps.db, key).listOfClaim(claimId),
        await attachmentsStore(deps.db).listOfClaim(claimId),
        await claimStore(deps.db).listAudit(claimId, key),
      ];
      const extra: object[] = [];
      for (const extension of extensions) extra.push(await extension.load(deps.db, claimId));
      res.set('ETag', `"${claim.version}"`).json({
        claim: withoutTokenHash(claim),
        status_updates: statusUpdates.map((stored) => ({
          update_id: stored.update_id,
          created_at: stored.created_at,
          created_by: stored.created_by,
          ...stored.update,
        })),
        attachments,
        timeline,
        ...Object.assign({}, ...extra),
      });
    },
  });
  return router;
}
