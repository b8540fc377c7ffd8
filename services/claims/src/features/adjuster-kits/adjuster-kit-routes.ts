import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { Router, type Request, type Response } from 'express';
import { authenticate, principalOf, requireScope } from '@platform/auth';
import { withTransactional } from '@platform/db';
import { noBody, problems, setDownloadHeaders } from '@platform/http';
import { assertServable, type ServiceDeps } from '@platform/runtime';
import { readClaim } from '../../shared/claim-state';
import { adjusterKitSchema } from './adjuster-kits-schemas';
import { adjusterKitService } from './adjuster-kit-service';
import { storedFilePath } from '../attachments/attachment-storage';
import { findKitAttachment } from './attachment-files';

const common = {
  401: { description: 'No credentials, or credentials that do not verify' },
  503: { description: 'The database is unavailable' },
};

/**
 * POST …/generate-adjuster-kit (claims:write), GET …/adjuster-kits/{kit_id} (claims:read) and
 * GET …/attachments/{attachment_id}/content (claims:read), which the kit's download_url points to.
 */
export function adjusterKitRouter(deps: ServiceDeps, exchange: string): Router {
  const router = Router();
  const kits = withTransactional(adjusterKitService(exchange), deps.db);
  const tags = ['adjuster kits'];

  deps.openapi.operation('post', '/claims/{id}/generate-adjuster-kit', {
    summary: 'Generate an adjuster kit: a hashed snapshot of the claim file to start work from',
    description:
      'Stores an immutable snapshot (claim, latest triage run, latest escalation, timeline, attachments with sha256 and ' +
      'download_url, documents checklist, suggested next steps each marked draft) with `sha256` over the RFC 8785 ' +
      'canonical JSON of the snapshot without `sha256`. Generating again makes a new kit. Publishes ' +
      '`claim.adjuster_kit_generated`. Takes no body.',
    tags,
    security: { scope: 'claims:write' },
    responses: {
      201: { description: 'The stored kit', schema: adjusterKitSchema, headers: { Location: 'The kit' } },
      403: { description: 'The caller lacks claims:write' },
      404: { description: 'No such claim' },
      415: { description: 'A body was sent; this operation takes none' },
      ...common,
    },
  });
  router.post('/api/claims/claims/:id/generate-adjuster-kit', authenticate(deps.verifyToken), requireScope('claims:write'), noBody, async (req: Request, res: Response) => {
    const actor = principalOf(req).sub;
    const kit = await kits.transactional((service) => service.generate(String(req.params.id), actor));
    res.status(201).location(`/api/claims/claims/${kit.claim_id}/adjuster-kits/${kit.kit_id}`).json(kit);
  });

  deps.openapi.operation('get', '/claims/{id}/adjuster-kits/{kit_id}', {
    summary: 'Read a stored adjuster kit',
    tags,
    security: { scope: 'claims:read' },
    responses: {
      200: { description: 'The kit as generated', schema: adjusterKitSchema },
      403: { description: 'The caller lacks claims:read' },
      404: { description: 'No such claim, or no such kit on it' },
      ...common,
    },
  });
  router.get('/api/claims/claims/:id/adjuster-kits/:kit_id', authenticate(deps.verifyToken), requireScope('claims:read'), async (req: Request, res: Response) => {
    res.json(await kits.get(String(req.params.id), String(req.params.kit_id)));
  });

  deps.openapi.operation('get', '/claims/{id}/attachments/{attachment_id}/content', {
    summary: "Download an attachment's stored bytes",
    description: 'Streams the file with its detected content type; the file name is for display only (Content-Disposition).',
    tags,
    security: { scope: 'claims:read' },
    responses: {
      200: { description: 'The file', contentType: 'application/octet-stream', schema: { type: 'string', contentEncoding: 'binary' } },
      403: { description: 'The caller lacks claims:read' },
      404: { description: 'No such claim, attachment, or stored file' },
      423: { description: 'The virus scan holds the file back: quarantined (`scan_status: infected`) or not scanned yet (`pending`)' },
      ...common,
    },
  });
  router.get('/api/claims/claims/:id/attachments/:attachment_id/content', authenticate(deps.verifyToken), requireScope('claims:read'), async (req: Request, res: Response) => {
    const claim = await readClaim(deps.db, String(req.params.id));
    const attachment = await findKitAttachment(deps.db, claim.claim_id, String(req.params.attachment_id));
    if (!attachment) throw problems.notFound('No such attachment on this claim');
    assertServable(attachment.scan_status);
    const file = storedFilePath(deps.dataDir, attachment.sha256);
    const size = await stat(file).then((info) => info.size, () => undefined);
    if (size === undefined) throw problems.notFound('The attachment\'s stored file is missing');
    res.status(200);
    setDownloadHeaders(res, { contentType: attachment.content_type, fileName: attachment.filename, size });
    res.setHeader('Digest', `sha-256=${Buffer.from(attachment.sha256, 'hex').toString('base64')}`);
    await pipeline(createReadStream(file), res);
  });
  return router;
}
