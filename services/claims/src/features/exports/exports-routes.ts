import { pipeline } from 'node:stream/promises';
import type { Response, Router } from 'express';
import { principalOf } from '@platform/auth';
import type { FileStorage } from '@platform/files';
import { setDownloadHeaders } from '@platform/http';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import type { ClaimsConfig } from '../../config';
import { claimIds } from '../../shared/claim-examples';
import { requireClaimantToken } from '../../shared/claimant-access';
import { PRIVACY_SCOPE } from '../../shared/privacy-scope';
import { accessLogStore, accessPurposeParameter, purposeRequiredResponse, readerOf } from '../access-log';
import { claimantPrivacyFor } from '../claimants';
import { claimantExportSchema, downloadTokenSchema, ownExportSchema } from './exports-schemas';
import { exportsService } from './exports-service';

const CLAIMANT_ID = '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d';
const EXPORT_ID = '7b8c9d0e-1f2a-4b3c-9d4e-5f6a7b8c9d0e';

const exportExample = {
  export_id: EXPORT_ID,
  claimant_id: CLAIMANT_ID,
  status: 'building',
  progress: { done: 3, total: 7 },
  requested_by: 'privacy-pat',
  include_internal_notes: false,
  requested_at: '2026-11-23T09:30:00.000Z',
  completed_at: null,
  archive: null,
  failure: null,
  links: { self: `/api/claims/claimants/${CLAIMANT_ID}/exports/${EXPORT_ID}`, archive: null },
};

const ownExportExample = {
  export_id: EXPORT_ID,
  claim_id: claimIds.CLAIM_ID,
  status: 'queued',
  progress: { done: 0, total: null },
  requested_at: '2026-11-23T09:30:00.000Z',
  completed_at: null,
  delivery: 'email',
};

const ARCHIVE_DESCRIPTION =
  'A zip: per claim `claims/<claim_number>/` with `claim.json` (the claim file), `status-updates.json` (the updates sent), ' +
  '`deliveries.json`, `attachments.json` and the attachments’ bytes under `attachments/` (a quarantined or unscanned file is listed, ' +
  'not copied), `notes.json` (internal notes listed: id, author, topic, date; their text only when the export includes internal ' +
  'notes, EXPORT_INCLUDE_INTERNAL_NOTES, default off); `manifest.json` (the export, its claims, and every entry’s path, SHA-256 and ' +
  'size) and `SHA256SUMS` (`sha256sum -c` form, every entry and the manifest).';

const zipResponse = {
  description: ARCHIVE_DESCRIPTION,
  contentType: 'application/zip',
  schema: { type: 'string', contentEncoding: 'binary' },
};

async function sendZip(res: Response, archive: { bytes: NodeJS.ReadableStream; fileName: string; size: number }) {
  res.status(200).setHeader('Cache-Control', 'no-store');
  setDownloadHeaders(res, { contentType: 'application/zip', fileName: archive.fileName, size: archive.size });
  await pipeline(archive.bytes, res);
}

/**
 * Subject-access exports: POST/GET …/claimants/{claimant_id}/exports (privacy:manage) and the claimant's own
 * request from the portal (claim token), downloaded with a one-time token.
 */
export function exportsRoutes(deps: ServiceDeps, config: ClaimsConfig, storage: FileStorage, kickBuilder: () => void): Router {
  const { router, defineRoute } = featureRoutes(deps, 'Exports');
  const exports = exportsService({
    includeInternalNotes: config.EXPORT_INCLUDE_INTERNAL_NOTES,
    downloadTokenTtlHours: config.EXPORT_LINK_TTL_HOURS,
    storage,
    keys: claimantPrivacyFor(deps, config).keys,
  })(deps.db);

  defineRoute({
    method: 'post',
    path: '/api/claims/claimants/{claimant_id}/exports',
    operationId: 'requestClaimantExport',
    summary: 'Export everything held about a claimant (subject access)',
    description:
      'Queues an export of every claim of the claimant (`claimant_id` of `GET /claims/{id}`) and answers at once; the build runs in ' +
      'the background (a job table the periodic runner drains: a build a restart interrupted is taken up again) and its progress is ' +
      'read with GET …/exports/{export_id}. Internal notes’ texts are included only when EXPORT_INCLUDE_INTERNAL_NOTES is on ' +
      '(fixed per export when requested). Takes no body.',
    scopes: [PRIVACY_SCOPE],
    responses: {
      202: {
        description: 'The export, queued',
        schema: claimantExportSchema,
        schemaName: 'ClaimantExport',
        example: { ...exportExample, status: 'queued', progress: { done: 0, total: null } },
        headers: { Location: 'The export' },
      },
      401: { description: 'No credentials, or credentials that do not verify' },
      403: { description: 'The caller lacks privacy:manage' },
      404: { description: 'No such claimant' },
      409: { description: 'The claimant was erased' },
      400: { description: 'A body was sent; this operation takes none' },
      503: { description: 'The database is unavailable' },
    },
    handler: async (req, res) => {
      const created = await exports.request(String(req.params.claimant_id), principalOf(req).sub);
      kickBuilder();
      res.status(202).location(created.links.self).json(created);
    },
  });

  defineRoute({
    method: 'get',
    path: '/api/claims/claimants/{claimant_id}/exports/{export_id}',
    operationId: 'getClaimantExport',
    summary: 'An export’s status and progress',
    description: 'Once `ready`, `links.archive` is where the zip is downloaded (a separate resource, so polling stays small).',
    scopes: [PRIVACY_SCOPE],
    responses: {
      200: { description: 'The export', schema: claimantExportSchema, schemaName: 'ClaimantExport', example: exportExample },
      401: { description: 'No credentials, or credentials that do not verify' },
      403: { description: 'The caller lacks privacy:manage' },
      404: { description: 'No such export of this claimant' },
      503: { description: 'The database is unavailable' },
    },
    handler: async (req, res) => {
      res.json(await exports.get(String(req.params.claimant_id), String(req.params.export_id)));
    },
  });

  defineRoute({
    method: 'get',
    path: '/api/claims/claimants/{claimant_id}/exports/{export_id}/archive',
    operationId: 'downloadClaimantExport',
    summary: 'Download a ready export’s zip',
    description:
      'Each download is recorded in the access log of every claim the export holds (`export`, with the Access-Purpose given) before ' +
      'the bytes are sent; an export holding a sensitive claim needs an `Access-Purpose` (428 without one).',
    scopes: [PRIVACY_SCOPE],
    parameters: [accessPurposeParameter],
    responses: {
      200: zipResponse,
      400: { description: 'Access-Purpose is longer than 200 characters' },
      401: { description: 'No credentials, or credentials that do not verify' },
      403: { description: 'The caller lacks privacy:manage' },
      404: { description: 'No such export of this claimant' },
      409: { description: 'The export is not ready (queued, building or failed; `status` says which)' },
      410: { description: 'The archive is no longer stored (the claimant was erased since)' },
      ...purposeRequiredResponse,
      503: { description: 'The database is unavailable' },
    },
    handler: async (req, res) => {
      const reader = readerOf(req);
      const archive = await exports.archive(String(req.params.claimant_id), String(req.params.export_id));
      await accessLogStore(deps.db)
        .record(config.CLAIMS_EXCHANGE, reader, 'export', archive.claimIds)
        .catch((error: unknown) => {
          archive.bytes.destroy(); // refused (428) or not logged: the opened archive is not sent
          throw error;
        });
      await sendZip(res, archive);
    },
  });

  defineRoute({
    method: 'post',
    path: '/api/claims/public/claims/{id}/exports',
    operationId: 'requestOwnExport',
    summary: 'The claimant asks for a copy of their data',
    description:
      'Queues an export of everything held about the claimant (all their claims, as a privacy officer’s export). When it is ready ' +
      'a one-time download link goes to the claim’s channel on record: by email or SMS (the delivery queue; the link carries the ' +
      'download token in its fragment, `/portal/claims/{id}/exports/{export_id}#download=<token>`, never in a query), or, on the ' +
      'portal channel, the portal shows it ready and asks for a token with POST …/download-token. One open request at a time: ' +
      'another while one is queued or building is 409. Takes no body.',
    caller: 'claimant',
    responses: {
      202: {
        description: 'The export, queued',
        schema: ownExportSchema,
        schemaName: 'OwnExport',
        example: ownExportExample,
        headers: { Location: 'The export' },
      },
      401: { description: 'No access token' },
      404: { description: 'No such claim, or the token does not open it (indistinguishable)' },
      409: { description: 'An export the claimant asked for is still queued or building' },
      400: { description: 'A body was sent; this operation takes none' },
      503: { description: 'The database is unavailable' },
    },
    handler: async (req, res) => {
      const token = requireClaimantToken(req);
      const created = await exports.requestOwn(String(req.params.id), token);
      kickBuilder();
      res
        .status(202)
        .setHeader('Cache-Control', 'no-store')
        .location(`/api/claims/public/claims/${created.claim_id}/exports/${created.export_id}`)
        .json(created);
    },
  });

  defineRoute({
    method: 'get',
    path: '/api/claims/public/claims/{id}/exports/{export_id}',
    operationId: 'getOwnExport',
    summary: 'The status of the claimant’s own export',
    caller: 'claimant',
    responses: {
      200: { description: 'The export', schema: ownExportSchema, schemaName: 'OwnExport', example: ownExportExample },
      401: { description: 'No access token' },
      404: { description: 'No such claim or export, or the token does not open it (indistinguishable)' },
      503: { description: 'The database is unavailable' },
    },
    handler: async (req, res) => {
      const token = requireClaimantToken(req);
      res.setHeader('Cache-Control', 'no-store').json(await exports.getOwn(String(req.params.id), token, String(req.params.export_id)));
    },
  });

  defineRoute({
    method: 'post',
    path: '/api/claims/public/claims/{id}/exports/{export_id}/download-token',
    operationId: 'issueOwnExportDownloadToken',
    summary: 'A one-time download token for a ready export, on the portal channel',
    description:
      'For a claim followed on the portal (its channel): a fresh one-time token (it replaces any earlier one) that opens the archive ' +
      'once, within EXPORT_LINK_TTL_HOURS. A claim with an email or SMS channel gets its link there only (409). Takes no body.',
    caller: 'claimant',
    responses: {
      201: {
        description: 'The token',
        schema: downloadTokenSchema,
        example: {
          download_token: 'kF3…',
          expires_at: '2026-11-26T09:30:00.000Z',
          archive: `/api/claims/public/exports/${EXPORT_ID}/archive`,
        },
      },
      401: { description: 'No access token' },
      404: { description: 'No such claim or export, or the token does not open it (indistinguishable)' },
      409: { description: 'The export is not ready, or the claim’s channel is email or SMS (the link is sent there)' },
      400: { description: 'A body was sent; this operation takes none' },
      503: { description: 'The database is unavailable' },
    },
    handler: async (req, res) => {
      const token = requireClaimantToken(req);
      res
        .status(201)
        .setHeader('Cache-Control', 'no-store')
        .json(await exports.issuePortalToken(String(req.params.id), token, String(req.params.export_id)));
    },
  });

  defineRoute({
    method: 'get',
    path: '/api/claims/public/exports/{export_id}/archive',
    operationId: 'downloadOwnExport',
    summary: 'The claimant downloads their export, once',
    description:
      '`Authorization: Bearer <download token>`: the one-time token of the link sent to the claimant (or issued to the portal), ' +
      'never the claim’s access token and never in the URL. The first download spends it.',
    caller: 'claimant',
    responses: {
      200: zipResponse,
      401: { description: 'No download token' },
      404: { description: 'No such export, or the token does not open it (indistinguishable)' },
      410: { description: 'The token was used or has expired, or the archive is no longer stored' },
      503: { description: 'The database is unavailable' },
    },
    handler: async (req, res) => {
      const token = requireClaimantToken(req);
      await sendZip(res, await exports.downloadOwn(String(req.params.export_id), token));
    },
  });
  return router;
}
