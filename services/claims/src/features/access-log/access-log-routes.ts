import type { Router } from 'express';
import { problems } from '@platform/http';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import { readClaim } from '../../shared/claim-state';
import { PRIVACY_SCOPE } from '../../shared/privacy-scope';
import { accessLogPageSchema, accessLogQuerySchema, claimSensitivitySchema, type AccessLogQuery } from './access-log-schemas';
import { accessLogStore } from './access-log-store';

const accessExample = {
  access_id: '0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9',
  claim_id: '3f0e6c1a-8d2b-4c55-9a71-0b6f1f2d9e41',
  actor: 'adjuster-7',
  kind: 'claim_file',
  purpose: 'Reviewing the medical report before the reserve decision',
  sensitive: true,
  accessed_at: '2026-11-23T09:30:00.000Z',
};

/**
 * GET /api/claims/claims/{id}/access-log (privacy:manage): who read the claim's personal data, when and why;
 * GET /api/claims/claims/{id}/sensitivity (claims:read): whether reading it needs a purpose.
 */
export function accessLogRoutes(deps: ServiceDeps): Router {
  const { router, defineRoute } = featureRoutes(deps, 'Access log');

  defineRoute<{ query: AccessLogQuery }>({
    method: 'get',
    path: '/api/claims/claims/{id}/access-log',
    operationId: 'listClaimAccessLog',
    summary: "Who read a claim's personal data, newest first, cursor-paged",
    description:
      'Every staff read of the claim file (`GET /claims/{id}`), an attachment’s bytes, an adjuster kit (generated or read) and an ' +
      'export holding the claim adds a row before the data is served: who (`sub`), when, what kind, the `Access-Purpose` header the ' +
      'reader sent (null when none) and whether the claim was sensitive (an injury, or a triage fraud gate). A sensitive claim is ' +
      'read only with a purpose (428 without one, nothing served or logged), so its rows name one; other claims’ rows may not. ' +
      'The log is append-only (the database refuses changes) and each row is also published ' +
      'as `claim.personal_data_accessed` (whether a purpose was given, never its text) into the audit log. Reading this log is not logged.',
    scopes: [PRIVACY_SCOPE],
    query: accessLogQuerySchema,
    responses: {
      200: { description: 'A page of the access log', schema: accessLogPageSchema, example: { items: [accessExample], next_cursor: null } },
      400: { description: 'An unknown or malformed query parameter, or a cursor this service did not issue' },
      401: { description: 'No credentials, or credentials that do not verify' },
      403: { description: 'The caller lacks privacy:manage' },
      404: { description: 'No such claim' },
      503: { description: 'The database is unavailable' },
    },
    handler: async (req, res, { query }) => {
      const claim = await readClaim(deps.db, String(req.params.id));
      res.json(await accessLogStore(deps.db).listOfClaim(claim.claim_id, query));
    },
  });
  defineRoute({
    method: 'get',
    path: '/api/claims/claims/{id}/sensitivity',
    operationId: 'getClaimSensitivity',
    summary: 'Whether reading a claim’s personal data needs an Access-Purpose',
    description:
      'Flags only, nothing personal and not itself logged: what a client asks before it reads the claim file, so it can ask its ' +
      'user why first (the workbench’s purpose prompt). A sensitive claim (an injury, or a triage run that raised the fraud ' +
      'indicator) whose claimant is not erased has `purpose_required: true`: every read of its personal data without an ' +
      '`Access-Purpose` header is 428 and serves nothing.',
    scopes: ['claims:read'],
    responses: {
      200: {
        description: 'The claim’s flags',
        schema: claimSensitivitySchema,
        schemaName: 'ClaimSensitivity',
        example: { claim_id: accessExample.claim_id, claim_number: 'CLM-2026-000123', sensitive: true, purpose_required: true },
      },
      401: { description: 'No credentials, or credentials that do not verify' },
      403: { description: 'The caller lacks claims:read' },
      404: { description: 'No such claim' },
      503: { description: 'The database is unavailable' },
    },
    handler: async (req, res) => {
      const [claim] = await accessLogStore(deps.db).sensitivityOf([String(req.params.id)]);
      if (!claim) throw problems.notFound('No such claim');
      res.json(claim);
    },
  });
  return router;
}
