import { pipeline } from 'node:stream/promises';
import type { Router } from 'express';
import { principalOf } from '@platform/auth';
import { withTransactional } from '@platform/db';
import { problems, setDownloadHeaders } from '@platform/http';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import { assertServable } from '@platform/files';
import type { ClaimsConfig } from '../../config';
import { readClaim } from '../../shared/claim-state';
import { adjusterKitSchema } from './adjuster-kits-schemas';
import { adjusterKitService } from './adjuster-kits-service';
import { accessLogStore, accessPurposeParameter, purposeRequiredResponse, readerOf } from '../access-log';
import { claimantPrivacyFor } from '../claimants';
import { claimFiles } from '../attachments';
import { findKitAttachment } from './attachment-files';
import { attachmentExample, claimExample, escalationExample, timelineExample, triageExample } from '../../shared/claim-examples';

const adjusterKitExample = {
  kit_id: '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9',
  claim_id: claimExample.claim_id,
  generated_at: '2026-11-22T14:00:00Z',
  generated_by: 'adjuster-alice',
  draft: true,
  claim: claimExample,
  triage: triageExample,
  escalation: escalationExample,
  timeline: timelineExample,
  attachments: [
    {
      ...attachmentExample,
      description: 'The rear bumper',
      download_url: `/api/claims/claims/${claimExample.claim_id}/attachments/${attachmentExample.attachment_id}/content`,
    },
  ],
  documents_checklist: [
    { type: 'photos_of_damage', received: true, attachment_ids: [attachmentExample.attachment_id] },
    { type: 'police_report', received: false, attachment_ids: [] },
  ],
  suggested_next_steps: [{ step: 'Request the police report', reason: 'The checklist still lacks police_report', draft: true }],
  sha256: '3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b',
};

const common = {
  400: { description: 'Access-Purpose is longer than 200 characters' },
  401: { description: 'No credentials, or credentials that do not verify' },
  503: { description: 'The database is unavailable' },
};

/**
 * POST …/generate-adjuster-kit (claims:write), GET …/adjuster-kits/{kit_id} (claims:read) and
 * GET …/attachments/{attachment_id}/content (claims:read), which the kit's download_url points to.
 */
export function adjusterKitsRoutes(deps: ServiceDeps, config: ClaimsConfig): Router {
  const { router, defineRoute } = featureRoutes(deps, 'Adjuster kits');
  const kits = withTransactional(adjusterKitService(config.CLAIMS_EXCHANGE, claimantPrivacyFor(deps, config).keys), deps.db);
  const files = claimFiles(deps, config);

  defineRoute({
    method: 'post',
    path: '/api/claims/claims/{id}/generate-adjuster-kit',
    operationId: 'generateAdjusterKit',
    summary: 'Generate an adjuster kit: a hashed snapshot of the claim file to start work from',
    description:
      'Stores an immutable snapshot (claim, latest triage run, latest escalation, timeline, attachments with sha256 and ' +
      'download_url, documents checklist, suggested next steps each marked draft) with `sha256` over the RFC 8785 ' +
      'canonical JSON of the snapshot without `sha256`. Generating again makes a new kit. Publishes ' +
      '`claim.adjuster_kit_generated`. Takes no body. The kit holds the claim’s personal data: its generation is recorded in ' +
      'the claim’s access log (`adjuster_kit`); on a sensitive claim it needs an `Access-Purpose` (428 without one, before ' +
      'anything is generated).',
    scopes: ['claims:write'],
    parameters: [accessPurposeParameter],
    responses: {
      201: {
        description: 'The stored kit',
        schema: adjusterKitSchema,
        schemaName: 'AdjusterKit',
        example: adjusterKitExample,
        headers: { Location: 'The kit' },
      },
      403: { description: 'The caller lacks claims:write' },
      404: { description: 'No such claim' },
      415: { description: 'A body was sent; this operation takes none' },
      ...purposeRequiredResponse,
      ...common,
    },
    handler: async (req, res) => {
      const reader = readerOf(req);
      await accessLogStore(deps.db).requirePurpose(reader, [String(req.params.id)]);
      const kit = await kits.transactional((service) => service.generate(String(req.params.id), principalOf(req).sub));
      await accessLogStore(deps.db).record(config.CLAIMS_EXCHANGE, reader, 'adjuster_kit', [kit.claim_id]);
      res.status(201).location(`/api/claims/claims/${kit.claim_id}/adjuster-kits/${kit.kit_id}`).json(kit);
    },
  });

  defineRoute({
    method: 'get',
    path: '/api/claims/claims/{id}/adjuster-kits/{kit_id}',
    operationId: 'getAdjusterKit',
    summary: 'Read a stored adjuster kit',
    description:
      'The read is recorded in the claim’s access log (`adjuster_kit`) before the kit is served; a sensitive claim’s kit needs ' +
      'an `Access-Purpose` (428 without one).',
    scopes: ['claims:read'],
    parameters: [accessPurposeParameter],
    responses: {
      200: { description: 'The kit as generated', schema: adjusterKitSchema, schemaName: 'AdjusterKit', example: adjusterKitExample },
      403: { description: 'The caller lacks claims:read' },
      404: { description: 'No such claim, or no such kit on it' },
      ...purposeRequiredResponse,
      ...common,
    },
    handler: async (req, res) => {
      const reader = readerOf(req);
      const kit = await kits.get(String(req.params.id), String(req.params.kit_id));
      await accessLogStore(deps.db).record(config.CLAIMS_EXCHANGE, reader, 'adjuster_kit', [kit.claim_id]);
      res.json(kit);
    },
  });

  defineRoute({
    method: 'get',
    path: '/api/claims/claims/{id}/attachments/{attachment_id}/content',
    operationId: 'downloadAttachment',
    summary: "Download an attachment's stored bytes",
    description:
      'Streams the file with its detected content type; the file name is for display only (Content-Disposition). The download ' +
      'is recorded in the claim’s access log (`attachment`) before the bytes are sent; a sensitive claim’s attachment needs an ' +
      '`Access-Purpose` (428 without one).',
    scopes: ['claims:read'],
    parameters: [accessPurposeParameter],
    responses: {
      200: { description: 'The file', contentType: 'application/octet-stream', schema: { type: 'string', contentEncoding: 'binary' } },
      403: { description: 'The caller lacks claims:read' },
      404: { description: 'No such claim, attachment, or stored file' },
      423: { description: 'The virus scan holds the file back: quarantined (`scan_status: infected`) or not scanned yet (`pending`)' },
      ...purposeRequiredResponse,
      ...common,
    },
    handler: async (req, res) => {
      const reader = readerOf(req);
      const claim = await readClaim(deps.db, String(req.params.id));
      const attachment = await findKitAttachment(deps.db, claim.claim_id, String(req.params.attachment_id));
      if (!attachment) throw problems.notFound('No such attachment on this claim');
      assertServable(attachment.scan_status);
      await accessLogStore(deps.db).requirePurpose(reader, [claim.claim_id]);
      const bytes = await files.open(claim.claim_id, attachment.attachment_id).catch(() => {
        throw problems.notFound("The attachment's stored file is missing, or its claimant was erased");
      });
      await accessLogStore(deps.db).record(config.CLAIMS_EXCHANGE, reader, 'attachment', [claim.claim_id]);
      res.status(200);
      setDownloadHeaders(res, { contentType: attachment.content_type, fileName: attachment.filename, size: attachment.size_bytes });
      res.setHeader('Digest', `sha-256=${Buffer.from(attachment.sha256, 'hex').toString('base64')}`);
      await pipeline(bytes, res);
    },
  });
  return router;
}
