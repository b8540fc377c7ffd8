import type { Request, Router } from 'express';
import { withTransactional } from '@platform/db';
import { compile } from '@platform/http';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import type { ClaimsConfig } from '../../config';
import { ACCESS_LINK_ACCEPTED, accessLinkAcceptedSchema, accessLinkRequestSchema, type AccessLinkRequest } from './access-links-schemas';
import { accessLinksService } from './access-links-service';
import { claimantPrivacyFor } from '../claimants';

/**
 * The client as the gateway names it (it replaces any client-sent X-Forwarded-For with the one address it
 * saw), or the peer when the service is reached directly.
 */
function clientAddressOf(req: Request): string {
  return req.get('x-forwarded-for')?.split(',')[0].trim() || req.socket.remoteAddress || 'unknown';
}

/** POST /api/claims/public/access-links (public) — a claimant who lost their link asks for a new one. */
export function accessLinksRoutes(deps: ServiceDeps, config: ClaimsConfig, kickDelivery: () => void): Router {
  const accessLinks = withTransactional(
    accessLinksService({
      perAddress: config.ACCESS_LINK_LIMIT_PER_ADDRESS,
      perClaim: config.ACCESS_LINK_LIMIT_PER_CLAIM,
      windowSeconds: config.ACCESS_LINK_WINDOW_SECONDS,
      reissuesPerDay: config.ACCESS_LINK_REISSUES_PER_DAY,
      keys: claimantPrivacyFor(deps, config).keys,
    }),
    deps.db,
  );
  compile(accessLinkRequestSchema);
  // Matching runs after the answer, one request after another, so neither the answer nor its timing tells whether a claim matched.
  let matching: Promise<unknown> = Promise.resolve();
  const { router, defineRoute } = featureRoutes(deps, 'Access links');

  defineRoute<{ body: AccessLinkRequest }>({
    method: 'post',
    path: '/api/claims/public/access-links',
    operationId: 'requestAccessLink',
    summary: 'Ask for a new link to a claim (a lost link)',
    description:
      'Always 202 with the same body, whether or not the details match a claim. When the claim number and the email (any case) or ' +
      'the phone (any usual way of writing an E.164 number) match, a new link goes to that email or phone: ' +
      '`{PUBLIC_BASE_URL}/portal/claims/{claim_id}#token={access_token}` (the token in the fragment), and every earlier token stops ' +
      'opening the claim once it is sent. Rate limited per client address and per claim number (ACCESS_LINK_LIMIT_PER_ADDRESS, ' +
      'ACCESS_LINK_LIMIT_PER_CLAIM in ACCESS_LINK_WINDOW_SECONDS, counted in the database across replicas): over either, 429 with Retry-After.',
    caller: 'public',
    body: {
      contentType: 'application/json',
      schema: accessLinkRequestSchema,
      example: { claim_number: 'CLM-2026-000123', email: 'ana@example.com' },
    },
    responses: {
      202: {
        description: 'Accepted; the same body whether or not anything matched',
        schema: accessLinkAcceptedSchema,
        example: ACCESS_LINK_ACCEPTED,
      },
      400: { description: 'Malformed JSON, a schema violation, neither or both of email and phone' },
      429: {
        description: 'Too many requests from this address or for this claim number in the window',
        headers: { 'Retry-After': 'Seconds until the window allows another request' },
      },
      503: { description: 'The database is unavailable' },
    },
    handler: async (req, res, { body }) => {
      await accessLinks.transactional((service) => service.admit(clientAddressOf(req), body.claim_number));
      res.status(202).setHeader('Cache-Control', 'no-store');
      res.json(ACCESS_LINK_ACCEPTED);
      matching = matching
        .then(() => accessLinks.transactional((service) => service.request(body)))
        .then((queued) => queued && kickDelivery())
        .catch((error) => deps.logger.warn({ err: error }, 'an access-link request could not be matched; the claimant may ask again'));
    },
  });
  return router;
}
