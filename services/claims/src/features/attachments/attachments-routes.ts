import type { Router } from 'express';
import { withTransactional } from '@platform/db';
import { problems } from '@platform/http';
import { uploadPath, type VirusScanner } from '@platform/files';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import type { ClaimsConfig } from '../../config';
import { claimOpenedBy, requireClaimantToken } from '../../shared/claimant-access';
import { attachmentExample } from '../../shared/claim-examples';
import { attachmentService } from './attachments-service';
import { attachmentPlacements } from './attachment-storage';
import { claimFiles } from './claim-files';
import { attachmentsResponseSchema, uploadSchema } from './attachments-schemas';
import { acceptUpload, MAX_FILES, receiveUpload, type ReceivedUpload } from './multipart-upload';

/** POST /api/claims/public/claims/{id}/attachments — claimant uploads, streamed to file storage. */
export function attachmentsRoutes(deps: ServiceDeps, config: ClaimsConfig, scanner: VirusScanner | undefined): Router {
  const files = claimFiles(deps, config);
  const { storage } = files;
  const placements = attachmentPlacements(deps.db, storage);
  const service = withTransactional(attachmentService({ exchange: config.CLAIMS_EXCHANGE, storage }), deps.db);
  const fileUpload = uploadPath({ storage, placements, scanner, logger: deps.logger });
  const { router, defineRoute } = featureRoutes(deps, 'Attachments');

  defineRoute({
    method: 'post',
    path: '/api/claims/public/claims/{id}/attachments',
    operationId: 'addAttachments',
    summary: 'Add attachments to a claim',
    description:
      `Up to ${MAX_FILES} \`file\` parts, each at most ATTACHMENT_MAX_BYTES (25 MiB by default), accepted by their bytes (PDF, JPEG, PNG, HEIC, WebP, MP4). ` +
      'Optional `document_type` (a checklist type of the claim, or `other`) and `description` apply to every file. The same bytes again return the stored attachment with `duplicate: true`. ' +
      'Every file is scanned for viruses (CLAMD_URL) before it is filed: an infected file is quarantined (`scan_status: infected`, a plain-words `scan_notice`, ' +
      'not counted in the checklist); with the scanner down it is `pending` until a background rescan decides. A rejected upload leaves no file, row or event.',
    caller: 'claimant',
    // multipart: the handler streams it, after the token and the claim are checked
    body: {
      contentType: 'multipart/form-data',
      schema: uploadSchema,
      example: { file: ['(the bytes of rear-bumper.jpg)'], document_type: 'photos_of_damage', description: 'The rear bumper' },
    },
    responses: {
      201: {
        description: 'The attachments, new or already stored',
        schema: attachmentsResponseSchema,
        example: { attachments: [{ ...attachmentExample, content_type: 'image/jpeg', scan_notice: null, duplicate: false }] },
      },
      400: { description: 'Malformed multipart body, no file, unexpected part or field, unknown document_type, more than 10 files' },
      401: { description: 'No access token' },
      404: { description: 'No such claim, or the token does not open it' },
      409: { description: 'The claim is closed' },
      413: { description: 'A file exceeds ATTACHMENT_MAX_BYTES' },
      415: { description: 'Not multipart/form-data, or a file whose bytes are not an accepted type' },
      503: {
        description:
          'The database is unavailable, or a replica starting at that moment recovered the upload as abandoned; send it again after Retry-After',
      },
    },
    handler: async (req, res) => {
      const reject = (problem: Error) => {
        req.resume(); // discard the unread body so the answer reaches the client
        throw problem;
      };
      let token: string;
      try {
        token = requireClaimantToken(req);
      } catch (problem) {
        return reject(problem as Error);
      }
      const claim = await claimOpenedBy(deps.db, String(req.params.id), token).catch(reject);
      if (!req.is('multipart/form-data')) return reject(problems.unsupportedMediaType('Content-Type must be multipart/form-data'));
      if (claim.stage === 'closed') return reject(problems.conflict('The claim is closed; it takes no more attachments'));

      const key = await files.sealingKey(claim.claim_id).catch(reject);
      const multipart = await receiveUpload(req, res, storage, config.ATTACHMENT_MAX_BYTES);
      let upload: ReceivedUpload | undefined;
      const attachments = await fileUpload(
        multipart.files,
        {
          accept: async () => (upload = await acceptUpload(multipart)).files,
          seal: key ? (file) => files.seal(claim.claim_id, key, file) : undefined,
          write: (files, place) =>
            service.transactional((attachmentsOfClaim) => attachmentsOfClaim.addAttachments(claim.claim_id, { ...upload!, files }, place)),
        },
        req.id,
      );
      res.status(201).json({ attachments });
    },
  });
  return router;
}
