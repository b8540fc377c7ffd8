import type { Router } from 'express';
import { principalOf } from '@platform/auth';
import { withTransactional } from '@platform/db';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import type { ClaimsConfig } from '../../config';
import { WRITE_SCOPE } from '../../shared/stage-machine';
import { contactRequestSchema, contactSchema, contactsListSchema, type ContactRequest } from './contacts-schemas';
import { contactsService } from './contacts-service';

const contactExample = {
  contact_id: '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  claim_id: '3f0e6c1a-8d2b-4c55-9a71-0b6f1f2d9e41',
  channel: 'call',
  occurred_at: '2026-11-23T09:30:00.000Z',
  note: 'Explained the next steps; photos to follow',
  recorded_by: 'adjuster-7',
  recorded_at: '2026-11-23T09:41:00.000Z',
};

/** POST and GET /api/claims/claims/{id}/contacts: contacts an adjuster made with the claimant. */
export function contactsRoutes(deps: ServiceDeps, config: ClaimsConfig): Router {
  const { router, defineRoute } = featureRoutes(deps, 'Contacts');
  const contacts = withTransactional(contactsService(config.CLAIMS_EXCHANGE), deps.db);

  defineRoute<{ body: ContactRequest }>({
    method: 'post',
    path: '/api/claims/claims/{id}/contacts',
    operationId: 'recordClaimContact',
    summary: 'Record a contact made with the claimant (call, email, visit)',
    description:
      'The first contact recorded ends the first-contact deadline (`first_contact_made_at` on the claim; no `claim.sla_breached` for it ' +
      'afterwards) and completes the assignee\'s "First contact due" diary activity. Contacts are never edited or deleted. ' +
      '`claim.contact_recorded` and the audit log carry the channel and moment, never the note. ' +
      'Not keyed by Idempotency-Key (like the other adjuster writes): a repeated request records a second contact, which changes no deadline.',
    scopes: [WRITE_SCOPE],
    body: {
      contentType: 'application/json',
      schema: contactRequestSchema,
      example: { channel: 'call', occurred_at: contactExample.occurred_at, note: contactExample.note },
    },
    responses: {
      201: { description: 'The contact', schema: contactSchema, schemaName: 'ClaimContact', example: contactExample },
      400: { description: 'Malformed JSON or a schema violation (an unknown channel, a note over 2,000 characters)' },
      401: { description: 'No credentials, or credentials that do not verify' },
      403: { description: 'The caller lacks claims:write' },
      404: { description: 'No such claim' },
      409: { description: 'The claim is closed' },
      415: { description: 'Content-Type is not application/json' },
      422: { description: 'occurred_at is in the future or before the claim was received' },
      503: { description: 'The database is unavailable' },
    },
    handler: async (req, res, { body }) => {
      const caller = principalOf(req);
      res.status(201).json(await contacts.transactional((s) => s.record(String(req.params.id), body, caller)));
    },
  });

  defineRoute({
    method: 'get',
    path: '/api/claims/claims/{id}/contacts',
    operationId: 'listClaimContacts',
    summary: "A claim's recorded contacts, latest first",
    scopes: ['claims:read'],
    responses: {
      200: { description: 'Every contact of the claim', schema: contactsListSchema, example: { items: [contactExample] } },
      401: { description: 'No credentials, or credentials that do not verify' },
      403: { description: 'The caller lacks claims:read' },
      404: { description: 'No such claim' },
      503: { description: 'The database is unavailable' },
    },
    handler: async (req, res) => {
      res.json(await contacts.transactional((s) => s.list(String(req.params.id))));
    },
  });
  return router;
}
