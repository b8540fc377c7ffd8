import type { Router } from 'express';
import { principalOf } from '@platform/auth';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import { claimExample } from '../../shared/claim-examples';
import type { ClaimsConfig } from '../../config';
import { claimsListQuerySchema, claimsListResponseSchema, type ClaimsListQuery } from './claims-list-schemas';
import { claimsListService } from './claims-list-service';
import { nameIndexKey } from './claimant-name-index';
import { claimantPrivacyFor } from '../claimants';
import { adjusterDirectory } from '../assignment';

/** GET /api/claims/claims (claims:read) — claims newest first, filtered, keyset-paginated. */
export function claimsListRoutes(deps: ServiceDeps, config: ClaimsConfig): Router {
  const privacy = claimantPrivacyFor(deps, config);
  const claimsList = claimsListService(nameIndexKey(privacy, deps.dataDir), privacy)(deps.db);
  const { router, defineRoute } = featureRoutes(deps, 'Claims');

  defineRoute<{ query: ClaimsListQuery }>({
    method: 'get',
    path: '/api/claims/claims',
    operationId: 'listClaims',
    summary: 'List claims',
    description:
      'Newest first, keyset pagination: pass `next_cursor` as `cursor` for the next page. Any unknown or malformed parameter is 400. ' +
      '`q` searches claim number, policy number, claimant name (typos and partial words), email and phone, best match first ' +
      '(then newest), and combines with every filter and the cursor (a cursor continues only the search it came from). ' +
      "The name is matched through keyed tokens of its trigrams (a name needs half the search's tokens), never the stored name, " +
      'and a claim whose claimant was erased is no longer found by name. ' +
      "`assignee=me` is the caller's own work list; `assignee` and `unassigned=true` together are 422. " +
      '`overdue=true` lists open claims past a deadline still unmet (acknowledgement, first contact, promised next update), ' +
      '`deadline` narrows it to one (alone it is 422); `delivery_failed=true` lists claims with a message whose delivery failed. ' +
      '`sort` orders by created_at, estimated_amount, severity (latest triage score) or loss_type, `-` descending; the cursor continues only its own sort.',
    scopes: ['claims:read'],
    query: claimsListQuerySchema,
    responses: {
      200: {
        description: 'A page of claim summaries',
        schema: claimsListResponseSchema,
        example: {
          items: [
            {
              claim_id: claimExample.claim_id,
              claim_number: claimExample.claim_number,
              stage: claimExample.stage,
              policy_number: claimExample.policy_number,
              loss_type: claimExample.loss.type,
              loss_date: claimExample.loss.date,
              claimant_name: claimExample.claimant.name,
              queue: claimExample.queue,
              assignee: claimExample.assignee,
              escalation: null,
              estimated_amount: claimExample.estimated_amount,
              severity: 35,
              created_at: claimExample.created_at,
              updated_at: claimExample.updated_at,
              next_update_due: claimExample.next_update_due,
            },
          ],
          next_cursor: null,
        },
      },
      400: {
        description:
          'An unknown or malformed query parameter, a q of fewer than 3 characters, or a cursor this service did not issue for this search',
      },
      401: { description: 'No or invalid credentials' },
      403: { description: 'The caller lacks claims:read' },
      422: {
        description:
          'created_from is not before created_to, assignee and unassigned=true together, deadline without overdue=true, or sort with q',
      },
      503: { description: 'The database is unavailable' },
    },
    handler: async (req, res, { query }) => {
      const caller = principalOf(req);
      const page = await claimsList.list(query, caller);
      // The work queue is where an adjuster starts after signing in: the directory of assignable people learns them here.
      await adjusterDirectory(deps.db).sawCaller(caller);
      res.json(page);
    },
  });
  return router;
}
