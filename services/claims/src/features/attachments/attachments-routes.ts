import { Router } from 'express';
import { withTransactional } from '@platform/db';
import { problems } from '@platform/http';
import { SCAN_STATUSES, scanUpload, type ServiceDeps, type VirusScanner } from '@platform/runtime';
import type { ClaimsConfig } from '../../config';
import { claimOpenedBy, requireClaimantToken } from '../../shared/claimant-access';
import { DOCUMENT_TYPES } from '../intake/required-documents';
import { attachmentExample } from '../claims/claim-examples';
import { attachmentService, removeUnreferencedFiles, type ScannedUpload } from './attachments-service';
import { removeFile } from './attachment-storage';
import { ACCEPTED_CONTENT_TYPES, MAX_FILES, receiveUpload } from './multipart-upload';

export const attachmentScanStatusSchema = {
  enum: [...SCAN_STATUSES],
  description:
    'Virus scan: `clean`; `infected` (quarantined: kept for investigation, never served, not counted in the checklist); ' +
    '`pending` (the scanner was unreachable; rescanned in the background, not served until clean); `not_scanned` (no scanner configured)',
} as const;

export const attachmentResultSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['attachment_id', 'filename', 'content_type', 'size_bytes', 'sha256', 'document_type', 'received_at', 'scan_status', 'scan_notice', 'duplicate'],
  properties: {
    attachment_id: { type: 'string', format: 'uuid' },
    filename: { type: 'string', description: 'For display only' },
    content_type: { enum: ACCEPTED_CONTENT_TYPES },
    size_bytes: { type: 'integer', minimum: 0 },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    document_type: { type: 'string' },
    received_at: { type: 'string', format: 'date-time' },
    scan_status: attachmentScanStatusSchema,
    scan_notice: { type: ['string', 'null'], description: 'Plain words for the claimant when the virus scan holds the file back (quarantined or still pending)' },
    duplicate: { type: 'boolean', description: 'True when the claim already had these bytes; the stored attachment is returned' },
  },
} as const;

export const attachmentsResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['attachments'],
  properties: { attachments: { type: 'array', items: attachmentResultSchema } },
} as const;

const uploadSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['file'],
  properties: {
    file: { type: 'array', minItems: 1, maxItems: MAX_FILES, items: { type: 'string', contentMediaType: 'application/octet-stream' } },
    document_type: { enum: DOCUMENT_TYPES, description: "One of the claim's checklist types, or `other` (the default)" },
    description: { type: 'string', maxLength: 1000 },
  },
} as const;

/** POST /api/claims/public/claims/{id}/attachments — claimant uploads, streamed to disk. */
export function attachmentsRoutes(deps: ServiceDeps, config: ClaimsConfig, scanner: VirusScanner | undefined): Router {
  const service = withTransactional(attachmentService({ exchange: config.CLAIMS_EXCHANGE, dataDir: deps.dataDir }), deps.db);
  const router = Router();

  router.post('/api/claims/public/claims/:id/attachments', async (req, res) => {
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

    const upload = await receiveUpload(req, deps.dataDir, config.ATTACHMENT_MAX_BYTES);
    const placed: string[] = [];
    try {
      const files: ScannedUpload['files'] = [];
      for (const file of upload.files) files.push({ ...file, scan: await scanUpload(scanner, file.tempPath) });
      const attachments = await service.transactional((attachmentsOfClaim) => attachmentsOfClaim.addAttachments(claim.claim_id, { ...upload, files }, placed));
      res.status(201).json({ attachments });
    } catch (error) {
      await Promise.all(upload.files.map((file) => removeFile(file.tempPath)));
      await removeUnreferencedFiles(deps.db, deps.dataDir, placed).catch((cleanupError) =>
        deps.logger.warn({ err: cleanupError, request_id: req.id }, 'could not remove the files of a failed upload'),
      );
      throw error;
    }
  });

  deps.openapi.operation('post', '/api/claims/public/claims/{id}/attachments', {
    operationId: 'addAttachments',
    summary: 'Add attachments to a claim',
    description:
      `Up to ${MAX_FILES} \`file\` parts, each at most ATTACHMENT_MAX_BYTES (25 MiB by default), accepted by their bytes (PDF, JPEG, PNG, HEIC, WebP, MP4). ` +
      'Optional `document_type` (a checklist type of the claim, or `other`) and `description` apply to every file. The same bytes again return the stored attachment with `duplicate: true`. ' +
      'Every file is scanned for viruses (CLAMD_URL) before it is filed: an infected file is quarantined (`scan_status: infected`, a plain-words `scan_notice`, ' +
      'not counted in the checklist); with the scanner down it is `pending` until a background rescan decides. A rejected upload leaves no file, row or event.',
    tag: 'Attachments',
    security: 'claimant',
    requestBody: { contentType: 'multipart/form-data', schema: uploadSchema, example: { file: ['(the bytes of rear-bumper.jpg)'], document_type: 'photos_of_damage', description: 'The rear bumper' } },
    responses: {
      201: { description: 'The attachments, new or already stored', schema: attachmentsResponseSchema,
        example: { attachments: [{ ...attachmentExample, content_type: 'image/jpeg', scan_notice: null, duplicate: false }] },
      },
      400: { description: 'Malformed multipart body, no file, unexpected part or field, unknown document_type, more than 10 files' },
      401: { description: 'No access token' },
      404: { description: 'No such claim, or the token does not open it' },
      409: { description: 'The claim is closed' },
      413: { description: 'A file exceeds ATTACHMENT_MAX_BYTES' },
      415: { description: 'Not multipart/form-data, or a file whose bytes are not an accepted type' },
      503: { description: 'The database is unavailable' },
    },
  });
  return router;
}
