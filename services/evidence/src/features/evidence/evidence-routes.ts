import type { Request, Response, Router } from 'express';
import { principalOf } from '@platform/auth';
import { assertValid, jsonBody, problems, setDownloadHeaders } from '@platform/http';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import { uploadPath, type VirusScanner } from '@platform/files';
import type { EvidenceConfig } from '../../config';
import { assertUuidPath, AUTH_ERRORS, READ_SCOPES } from '../../shared/access';
import { ACCEPTED_TYPES_TEXT, contentTypeOf } from './content-type';
import { evidencePlacements, evidenceStorage } from './file-store';
import { evidenceStore } from './evidence-store';
import { fileScansStore } from './file-scans';
import { evidenceForm, receiveEvidenceForm } from './multipart';
import {
  evidenceResponseSchema,
  fileEvidenceFieldsSchema,
  jsonEvidenceRequestSchema,
  multipartEvidenceRequestSchema,
  multipartRedactionRequestSchema,
  redactionFieldsSchema,
  redactionResponseSchema,
  type FileEvidenceFields,
  type JsonEvidenceRequest,
  type RedactionFields,
  type RedactionReceipt,
} from './evidence-schemas';
import { createEvidenceService } from './evidence-service';
import { addEvidenceRequestExample, evidenceExample } from '../../shared/examples';

function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** What the schema cannot say: url only (and always) for a link, an http(s) one; data only (and always) for a record. */
function assertKindFields(body: JsonEvidenceRequest): void {
  const errors = [];
  if (body.kind === 'link') {
    if (body.url === undefined) errors.push({ pointer: '/url', message: 'is required for a link' });
    else if (!isWebUrl(body.url)) errors.push({ pointer: '/url', message: 'must be an absolute http or https URL' });
  } else if (body.url !== undefined) errors.push({ pointer: '/url', message: 'is only accepted for a link' });
  if (body.kind === 'record' && body.data === undefined) errors.push({ pointer: '/data', message: 'is required for a record' });
  if (body.kind !== 'record' && body.data !== undefined) errors.push({ pointer: '/data', message: 'is only accepted for a record' });
  if (errors.length) throw problems.badRequest(`Request body: ${errors[0].pointer.slice(1)} ${errors[0].message}`, errors);
}

export function evidenceRoutes(deps: ServiceDeps, config: EvidenceConfig, scanner: VirusScanner | undefined): Router {
  const files = evidenceStorage(config, deps.dataDir);
  const service = createEvidenceService({ exchange: config.EVIDENCE_EXCHANGE }, deps.db);
  const placements = evidencePlacements(deps.db, files);
  const fileUpload = uploadPath({ storage: files, placements, scanner, logger: deps.logger });
  const { router, defineRoute } = featureRoutes(deps, 'Evidence');

  async function addJson(req: Request<Record<string, string>>, res: Response) {
    const runId = assertUuidPath(req.params.id, 'run');
    const body = assertValid<JsonEvidenceRequest>(jsonEvidenceRequestSchema, req.body);
    assertKindFields(body);
    const evidence = await service.addJson(runId, body, principalOf(req).sub);
    res.status(201).json(evidence);
  }

  async function addFile(req: Request<Record<string, string>>, res: Response) {
    const runId = assertUuidPath(req.params.id, 'run');
    await service.assertOpen(runId);
    const multipart = await receiveEvidenceForm(req, res, files, config.EVIDENCE_MAX_BYTES);
    let fields: FileEvidenceFields = {};
    const evidence = await fileUpload(
      multipart.files,
      {
        async accept() {
          const form = evidenceForm(multipart);
          fields = assertValid<FileEvidenceFields>(fileEvidenceFieldsSchema, form.fields, 'Form fields');
          if (form.file.sizeBytes === 0) throw problems.badRequest('The file is empty', [{ pointer: '/file', message: 'is empty' }]);
          if (fields.title === undefined && !form.file.fileName)
            throw problems.badRequest('title is required when the file has no name', [{ pointer: '/title', message: 'is required' }]);
          const contentType = await contentTypeOf(form.file);
          if (!contentType) throw problems.unsupportedMediaType(`The file's bytes are not an accepted type (${ACCEPTED_TYPES_TEXT})`);
          return [{ ...form.file, contentType }];
        },
        write: ([file], place) => service.addFile(runId, fields, file, principalOf(req).sub, place),
      },
      req.id,
    );
    res.status(201).json(evidence);
  }

  defineRoute({
    method: 'post',
    path: '/api/evidence/runs/{id}/evidence',
    operationId: 'addEvidence',
    summary: 'Add evidence to an open run (JSON note/link/record, or one file as multipart/form-data)',
    description: [
      'JSON evidence is hashed as its RFC 8785 canonical JSON; a file by its bytes (streamed, typed by its bytes, stored content-addressed).',
      `The multipart form takes one \`file\` part (${ACCEPTED_TYPES_TEXT}) and the text fields title (defaults to the file name), description, collected_at, source, supersedes; its kind is \`file\`.`,
      '`supersedes` corrects an item of the same run, which stays; an item is superseded at most once.',
      '`collected_at` outside the run period is accepted and flagged `out_of_period`.',
      'A file is scanned for viruses (CLAMD_URL) and answered with `scan_status`: `infected` files are quarantined (kept, never packed into a binder), ' +
        '`pending` ones (scanner down) are rescanned in the background, `not_scanned` means no scanner is configured.',
    ].join(' '),
    scopes: ['evidence:write'],
    body: {
      contentType: 'application/json',
      schema: jsonEvidenceRequestSchema,
      example: addEvidenceRequestExample,
      alternatives: {
        'multipart/form-data': {
          schema: multipartEvidenceRequestSchema,
          example: { file: '(the bytes of access-review.pdf)', title: 'Q3 access review', collected_at: '2026-09-30T17:00:00Z' },
        },
      },
    },
    responses: {
      201: { description: 'The stored evidence', schema: evidenceResponseSchema, example: evidenceExample },
      400: { description: 'Invalid body or field, missing file part, more than one file' },
      ...AUTH_ERRORS,
      404: { description: 'No such run' },
      409: { description: 'The run is not open, or the superseded item is already superseded' },
      413: { description: 'The file exceeds EVIDENCE_MAX_BYTES' },
      415: { description: 'Neither JSON nor multipart/form-data, or the file bytes are not an accepted type' },
      422: { description: '`supersedes` names no evidence of this run' },
    },
    // JSON or one file: the handler reads whichever arrives
    handler: (req, res) => {
      if (req.is('multipart/form-data')) return addFile(req, res);
      if (!req.is(['application/json', 'application/*+json']))
        throw problems.unsupportedMediaType('Content-Type must be application/json or multipart/form-data');
      return new Promise<void>((resolve, reject) =>
        jsonBody(req, res, (error?: unknown) => (error ? reject(error) : addJson(req, res).then(resolve, reject))),
      );
    },
  });

  defineRoute({
    method: 'post',
    path: '/api/evidence/evidence/{id}/redaction',
    operationId: 'redactEvidence',
    summary: "Redact an evidence file: a redacted version supersedes it and the original's bytes are destroyed",
    description: [
      'For personal data in an evidence file, in a run of any status. The multipart form takes one `file` part (the redacted version,',
      `${ACCEPTED_TYPES_TEXT}, scanned as any upload) and the text fields reason (required), title (defaults to the original's) and description.`,
      'The redacted version is stored as a new item of the same run that `supersedes` the original (its collected_at and source carried over);',
      "the original's row, hash and audit records stay, so the audit log and binders built before still verify, and its bytes are destroyed",
      '(local or object storage) once the redaction commits, unless another item that is not redacted holds the same bytes.',
      'The reason and who redacted are kept with the item and named in later binders (the audit record and the',
      "`evidence.evidence_redacted` event carry only identifiers and the hash). The original's content is then 410, and a binder built",
      'before can no longer be downloaded (410; a copy already downloaded still verifies): build a new one.',
      'A redaction supersedes the latest item of a chain: an item already redacted or corrected is a 409.',
    ].join(' '),
    scopes: ['privacy:manage'],
    parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
    body: {
      contentType: 'multipart/form-data',
      schema: multipartRedactionRequestSchema,
      example: { file: '(the bytes of access-review-redacted.pdf)', reason: 'Holds a claimant’s medical details' },
    },
    responses: {
      201: {
        description: 'The redaction and the superseding item',
        schema: redactionResponseSchema,
        example: {
          redacted: {
            evidence_id: evidenceExample.evidence_id,
            sha256: evidenceExample.sha256,
            reason: 'Holds a claimant’s medical details',
            redacted_by: 'privacy.officer@example.com',
            redacted_at: '2026-10-02T09:00:00.000Z',
          },
          evidence: { ...evidenceExample, evidence_id: '1f6d3a52-7c7e-4d55-9c47-2a7e0d1e5b90', supersedes: evidenceExample.evidence_id },
        },
      },
      400: { description: 'Invalid field, missing reason or file part, more than one file' },
      ...AUTH_ERRORS,
      404: { description: 'No such evidence' },
      409: { description: 'The item is already redacted, or already superseded by a correction' },
      413: { description: 'The file exceeds EVIDENCE_MAX_BYTES' },
      415: { description: 'Not multipart/form-data, or the file bytes are not an accepted type' },
      422: { description: 'The item is not a file (a note, link or record), or the redacted version has the same bytes' },
    },
    handler: async (req, res) => {
      const evidenceId = assertUuidPath(req.params.id, 'evidence');
      if (!req.is('multipart/form-data')) throw problems.unsupportedMediaType('Content-Type must be multipart/form-data');
      const original = await service.redactable(evidenceId);
      const multipart = await receiveEvidenceForm(req, res, files, config.EVIDENCE_MAX_BYTES);
      let fields: RedactionFields | undefined;
      // The original's bytes are announced before the transaction, and `recover` removes them only once no item
      // that is not redacted refers to them: after the commit they go, after a failure they stay, and if this
      // process dies in between the periodic placement recovery removes them.
      let removal: string[] = [];
      let receipt: RedactionReceipt;
      try {
        receipt = await fileUpload(
          multipart.files,
          {
            async accept() {
              const form = evidenceForm(multipart);
              fields = assertValid<RedactionFields>(redactionFieldsSchema, form.fields, 'Form fields');
              if (form.file.sizeBytes === 0) throw problems.badRequest('The file is empty', [{ pointer: '/file', message: 'is empty' }]);
              const contentType = await contentTypeOf(form.file);
              if (!contentType) throw problems.unsupportedMediaType(`The file's bytes are not an accepted type (${ACCEPTED_TYPES_TEXT})`);
              if (form.file.sha256 === original.sha256)
                throw problems.unprocessable('The redacted version has the same bytes as the original', {
                  errors: [{ pointer: '/file', message: 'is identical to the redacted item' }],
                });
              return [{ ...form.file, contentType }];
            },
            async write([file], place) {
              removal = await placements.announce([original.sha256]);
              return service.redact(evidenceId, fields as RedactionFields, file, principalOf(req).sub, place);
            },
          },
          req.id,
        );
      } finally {
        await placements
          .recover(removal)
          .catch((error) =>
            deps.logger.warn({ err: error, request_id: req.id }, 'could not yet remove the bytes of a redacted evidence file'),
          );
      }
      // Answered once the bytes are gone (or their removal is left to the recovery, logged).
      res.status(201).json(receipt);
    },
  });

  defineRoute({
    method: 'get',
    path: '/api/evidence/evidence/{id}/content',
    operationId: 'getEvidenceContent',
    summary: 'The content of one evidence item: a file as a download, a note, link or record as its stored JSON',
    description:
      'A file is answered with its bytes, its stored content type and `Content-Disposition: attachment` (never shown inline); ' +
      'a note, link or record with the RFC 8785 canonical JSON that was hashed (its `sha256`). A file the virus scan holds back ' +
      '(infected, or pending) is 409. Readable with any of evidence:write, evidence:approve, audit:read.',
    scopes: READ_SCOPES,
    parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
    responses: {
      200: {
        description: 'The stored content',
        contentType: 'application/octet-stream',
        schema: { type: 'string' },
        headers: { 'Content-Disposition': 'For a file: attachment, with its file name' },
      },
      ...AUTH_ERRORS,
      404: { description: 'No such evidence (an id that is not a UUID names none)' },
      409: { description: 'The virus scan holds the file back' },
      410: { description: 'The file was redacted: its bytes are destroyed (`superseded_by` of the item names the redacted version)' },
    },
    handler: async (req, res) => {
      const item = await evidenceStore(deps.db).find(assertUuidPath(req.params.id, 'evidence'));
      if (!item) throw problems.notFound('No such evidence');
      if (item.redaction)
        throw problems.gone(`This file was redacted (its bytes destroyed); ${item.superseded_by} is its redacted version`);
      if (item.kind !== 'file') {
        res.setHeader('X-Content-Type-Options', 'nosniff');
        res.type('application/json; charset=utf-8').send(item.content_json);
        return;
      }
      const held = await fileScansStore(deps.db).unservable(item.run_id);
      if (held.some((file) => file.evidence_id === item.evidence_id))
        throw problems.conflict('The virus scan holds this file back (infected, or pending a scan); it is not served');
      setDownloadHeaders(res, { contentType: item.content_type, fileName: item.file_name ?? item.evidence_id, size: item.size_bytes });
      (await files.open(item.sha256)).on('error', (error) => res.destroy(error)).pipe(res);
    },
  });

  return router;
}
