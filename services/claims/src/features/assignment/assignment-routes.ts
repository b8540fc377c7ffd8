import type { Router } from 'express';
import { principalOf } from '@platform/auth';
import { withTransactional } from '@platform/db';
import { invalidCursor, problems } from '@platform/http';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import type { ClaimsConfig } from '../../config';
import { claimExample } from '../../shared/claim-examples';
import { DECIDE_SCOPE, WRITE_SCOPE } from '../../shared/stage-machine';
import { adjusterDirectory } from './adjuster-directory';
import {
  adjustersQuerySchema,
  adjustersResponseSchema,
  assigneeRequestSchema,
  assigneeResponseSchema,
  type AdjustersPage,
  type AdjustersQuery,
  type AssigneeRequest,
} from './assignment-schemas';
import { assignmentService } from './assignment-service';

/** `If-Match: "4"` (or `W/"4"`) → 4; `*` or no header → undefined (no version check); anything else is 400. */
export function expectedVersionOf(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?"([1-9][0-9]{0,9})"\s*$/.exec(header);
  if (!match)
    throw problems.badRequest('If-Match must be the claim\'s ETag, e.g. "4"', [
      { pointer: '/headers/if-match', message: 'is not an ETag this service issued' },
    ]);
  return Number(match[1]);
}

/** PUT /api/claims/claims/{id}/assignee (claims:write for oneself, claims:decide for anyone). */
export function assignmentRoutes(deps: ServiceDeps, config: ClaimsConfig): Router {
  const { router, defineRoute } = featureRoutes(deps, 'Assignment');
  const assignment = withTransactional(assignmentService(config.CLAIMS_EXCHANGE), deps.db);

  defineRoute<{ body: AssigneeRequest }>({
    method: 'put',
    path: '/api/claims/claims/{id}/assignee',
    operationId: 'setClaimAssignee',
    summary: 'Take, release or reassign a claim',
    description:
      '`assignee` is a JWT `sub`, or null to release the claim. With `claims:write` alone a caller may only take an unassigned ' +
      'claim (`assignee` = their own `sub`) or release their own; anything else is 403. `claims:decide` may assign or release anyone. ' +
      "Send the claim's `ETag` (from `GET /api/claims/claims/{id}`, also its `version`) as `If-Match`: a stale one is 409, so two " +
      'adjusters cannot both take a claim; without `If-Match` taking a claim someone else holds is 409 as well. A closed claim is 409. ' +
      'Setting the current assignee again changes nothing. A change is recorded on the timeline and publishes `claim.assignee_changed`.',
    scopes: [WRITE_SCOPE, DECIDE_SCOPE],
    parameters: [{ name: 'If-Match', in: 'header', schema: { type: 'string' }, description: 'The ETag of the claim as read, e.g. "4"' }],
    body: { contentType: 'application/json', schema: assigneeRequestSchema, example: { assignee: 'adjuster-7' } },
    responses: {
      200: {
        description: "The claim's assignee now",
        schema: assigneeResponseSchema,
        example: { claim_id: claimExample.claim_id, assignee: 'adjuster-7', previous_assignee: null, version: 5 },
        headers: { ETag: "The claim's new version" },
      },
      400: { description: 'Malformed JSON, a schema violation, or an If-Match that is not an ETag' },
      401: { description: 'No credentials, or credentials that do not verify' },
      403: { description: "claims:write alone assigning someone else or releasing another's claim" },
      404: { description: 'No such claim' },
      409: { description: 'A stale If-Match, a claim already taken by someone else, or a closed claim' },
      415: { description: 'Content-Type is not application/json' },
      503: { description: 'The database is unavailable' },
    },
    handler: async (req, res, { body }) => {
      const expectedVersion = expectedVersionOf(req.get('if-match'));
      const caller = principalOf(req);
      const result = await assignment.transactional((service) => service.setAssignee(String(req.params.id), body, expectedVersion, caller));
      res.set('ETag', `"${result.version}"`).json(result);
    },
  });

  defineRoute<{ query: AdjustersQuery }>({
    method: 'get',
    path: '/api/claims/adjusters',
    operationId: 'listAdjusters',
    summary: 'The people claims can be assigned to',
    description:
      'The directory the assignment picker offers, by `sub`. The identity provider is not asked: the service learns the people ' +
      'who work claims itself — whoever opens the claims list holding `claims:write` (every adjuster does on signing in) and ' +
      'whoever a claim is assigned to. Someone who has never done either is not listed (they can still be assigned by `sub`).',
    scopes: ['claims:read'],
    query: adjustersQuerySchema,
    responses: {
      200: {
        description: 'A page of adjusters, by sub',
        schema: adjustersResponseSchema,
        example: { items: [{ sub: 'adjuster-7', last_seen_at: claimExample.updated_at }], next_cursor: null },
      },
      400: { description: 'An unknown or malformed query parameter, or a cursor this service did not issue' },
      401: { description: 'No or invalid credentials' },
      403: { description: 'The caller lacks claims:read' },
      503: { description: 'The database is unavailable' },
    },
    handler: async (_req, res, { query: { limit = 200, cursor } }) => {
      const after = cursor === undefined ? undefined : Buffer.from(cursor, 'base64url').toString('utf8');
      if (after !== undefined && (after.length === 0 || Buffer.from(after, 'utf8').toString('base64url') !== cursor)) throw invalidCursor();
      const rows = await adjusterDirectory(deps.db).page(after, limit + 1);
      const items = rows.slice(0, limit);
      const page: AdjustersPage = {
        items,
        next_cursor: rows.length > limit ? Buffer.from(items[items.length - 1].sub, 'utf8').toString('base64url') : null,
      };
      res.json(page);
    },
  });
  return router;
}
