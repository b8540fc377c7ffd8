import type { Express } from 'express';
import { claimsEventCatalog } from '@platform/claims/src/events';
import { evidenceEventCatalog } from '@platform/evidence/src/events';
import { asyncApiDocument } from '@platform/messaging';

/**
 * The AsyncAPI 3.0 document of every event on `claims.events` and `evidence.events`, built from the
 * services' event catalogs (the same schemas their emit sites are typed by; only the catalogs are
 * imported, never a service). Public, like /openapi.json.
 */
export const platformAsyncApi = (): object => asyncApiDocument([claimsEventCatalog, evidenceEventCatalog]);

export function mountAsyncApiDocument(app: Express): void {
  const document = platformAsyncApi();
  app.get('/asyncapi.json', (_req, res) => {
    res.json(document);
  });
}
