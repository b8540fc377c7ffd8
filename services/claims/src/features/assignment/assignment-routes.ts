import { Router, type Request, type Response } from 'express';
import { authenticate, principalOf, requireAnyScope } from '@platform/auth';
import { withTransactional } from '@platform/db';
import { assertValid, jsonBody, problems } from '@platform/http';
import type { ServiceDeps } from '@platform/runtime';
import type { ClaimsConfig } from '../../config';
import { claimExample } from '../claims/claim-examples';
import { DECIDE_SCOPE, WRITE_SCOPE } from '../../shared/stage-machine';
import { assigneeRequestSchema, assigneeResponseSchema, type AssigneeRequest } from './assignment-schemas';
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
  const router = Router();
  const assignment = withTransactional(assignmentService(config.CLAIMS_EXCHANGE), deps.db);

  deps.openapi.operation('put', '/api/claims/claims/{id}/assignee', {
    operationId: 'setClaimAssignee',
    summary: 'Take, release or reassign a claim',
    description:
      '`assignee` is a JWT `sub`, or null to release the claim. With `claims:write` alone a caller may only take an unassigned ' +
      'claim (`assignee` = their own `sub`) or release their own; anything else is 403. `claims:decide` may assign or release anyone. ' +
      "Send the claim's `ETag` (from `GET /api/claims/claims/{id}`, also its `version`) as `If-Match`: a stale one is 409, so two " +
      'adjusters cannot both take a claim; without `If-Match` taking a claim someone else holds is 409 as well. A closed claim is 409. ' +
      'Setting the current assignee again changes nothing. A change is recorded on the timeline and publishes `claim.assignee_changed`.',
    tag: 'Assignment',
    security: { anyScope: [WRITE_SCOPE, DECIDE_SCOPE] },
    parameters: [{ name: 'If-Match', in: 'header', schema: { type: 'string' }, description: 'The ETag of the claim as read, e.g. "4"' }],
    requestBody: { contentType: 'application/json', schema: assigneeRequestSchema, example: { assignee: 'adjuster-7' } },
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
  });
  router.put(
    '/api/claims/claims/:id/assignee',
    authenticate(deps.verifyToken),
    requireAnyScope(WRITE_SCOPE, DECIDE_SCOPE),
    jsonBody,
    async (req: Request, res: Response) => {
      const body = assertValid<AssigneeRequest>(assigneeRequestSchema, req.body);
      const expectedVersion = expectedVersionOf(req.get('if-match'));
      const caller = principalOf(req);
      const result = await assignment.transactional((service) => service.setAssignee(String(req.params.id), body, expectedVersion, caller));
      res.set('ETag', `"${result.version}"`).json(result);
    },
  );
  return router;
}
