import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response, Router } from 'express';
import { withTransactional } from '@platform/db';
import { principalOf, sameSubject } from '@platform/auth';
import { problems, setDownloadHeaders } from '@platform/http';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import type { EvidenceConfig } from '../../config';
import { evidenceStorage } from '../evidence';
import { READ_SCOPES, assertUuidPath, AUTH_ERRORS } from '../../shared/access';
import { coalesce, streamZip } from './binder-zip';
import { type CheckpointSigner, checkpointCovering, auditStore, awaitCosignatures, trustedWitnesses } from '../audit';
import { bindersService } from './binders-service';
import { binderListResponseSchema, listBindersQuerySchema, type ListBindersQuery } from './binders-schemas';
import { evidenceExample, runIds } from '../../shared/examples';

const binderExample = {
  binder_id: 'cc33dd44-ee55-4f66-8a77-889900aabbcc',
  run_id: runIds.RUN_ID,
  final: true,
  created_at: '2026-10-06T12:00:00Z',
  sha256: '2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae',
  manifest: {
    run: { run_id: runIds.RUN_ID, status: 'approved' },
    evidence: [{ evidence_id: evidenceExample.evidence_id, sha256: evidenceExample.sha256 }],
  },
  download_url: 'https://claims.example.com/api/evidence/binder-archives/cc33dd44-ee55-4f66-8a77-889900aabbcc',
};

const binderSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['binder_id', 'run_id', 'final', 'created_at', 'sha256', 'manifest', 'download_url'],
  properties: {
    binder_id: { type: 'string', format: 'uuid' },
    run_id: { type: 'string', format: 'uuid' },
    final: { type: 'boolean', description: 'True only for an approved run; otherwise the binder is a draft' },
    created_at: { type: 'string', format: 'date-time' },
    sha256: {
      type: 'string',
      pattern: '^[0-9a-f]{64}$',
      description: 'SHA-256 of the RFC 8785 canonical JSON of `manifest` (the zip’s manifest.json)',
    },
    manifest: {
      type: 'object',
      description:
        'Built from the run’s state only (the same state gives the same bytes): format, control (the version), run, final, evidence (each with sha256, flags, supersedes/superseded_by and its path in the zip), decisions, audit { records, checkpoint } — the run’s audit records and the first signed checkpoint covering them (with the signed message and public key).',
    },
    download_url: { type: 'string', format: 'uri' },
  },
};

/** Streams JSON text given in pieces (a binder's manifest can be megabytes), honouring backpressure. */
async function sendJsonText(res: Response, pieces: AsyncIterable<string>): Promise<void> {
  res.type('application/json');
  try {
    await pipeline(Readable.from(pieces, { objectMode: false }), res);
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE') return; // the client left; nothing to report
    throw error;
  }
}

export function bindersRoutes(deps: ServiceDeps, config: EvidenceConfig, signer: CheckpointSigner): Router {
  const files = evidenceStorage(config, deps.dataDir);
  const service = withTransactional(
    bindersService({ exchange: config.EVIDENCE_EXCHANGE, publicBaseUrl: config.PUBLIC_BASE_URL, signer, files }),
    deps.db,
  );
  const { router, defineRoute } = featureRoutes(deps, 'Binders');
  const witnesses = trustedWitnesses(config.AUDIT_WITNESS_KEYS);
  /** With witnesses configured, the run's records are signed and cosigned before its binder is built (or the wait ends). */
  const checkpointCosignedForRun = async (runId: string) => {
    const [last] = await auditStore(deps.db).listRecords({ entity_id: runId, limit: 1, newest_first: true });
    if (!last) return;
    await checkpointCovering(deps.db, signer, config.EVIDENCE_EXCHANGE, last.seq);
    const [covering] = await auditStore(deps.db).listCheckpoints({ after_seq: last.seq - 1, limit: 1 });
    if (covering) await awaitCosignatures(deps.db, witnesses, covering.seq, config.AUDIT_BINDER_COSIGN_WAIT_MS);
  };

  /** evidence:write builds any run's binder; an approver (evidence:approve alone) the binder of a run they decided. */
  const assertMayBuild = async (runId: string, principal: ReturnType<typeof principalOf>) => {
    if (principal.scopes.has('evidence:write')) return;
    if (!(await deps.db('evidence_runs').where({ run_id: runId }).first('run_id'))) throw problems.notFound(`No run ${runId}`);
    const deciders: { decided_by: string }[] = await deps.db('evidence_run_decisions').where({ run_id: runId }).select('decided_by');
    if (!deciders.some((row) => sameSubject(row.decided_by, principal.sub)))
      throw problems.forbidden('Only someone with evidence:write, or the approver who decided this run, may build its binder');
  };

  defineRoute({
    method: 'post',
    path: '/api/evidence/binders/run/{id}',
    operationId: 'buildBinder',
    summary: 'Build an examiner-ready binder of a run (a new immutable binder each time)',
    description:
      'With evidence:write, of any run; with evidence:approve alone, of a run the caller decided (403 otherwise), so the approver ' +
      'can hand the examiner the binder of what they approved.',
    scopes: ['evidence:write', 'evidence:approve'],
    responses: {
      201: {
        description: 'The binder',
        schema: binderSchema,
        schemaName: 'Binder',
        example: binderExample,
        headers: { Location: 'The binder' },
      },
      ...AUTH_ERRORS,
      404: { description: 'No such run' },
      409: { description: 'An evidence file of the run is quarantined (`infected`) or not scanned yet (`pending`); `files` lists them' },
    },
    handler: async (req, res) => {
      const runId = assertUuidPath(req.params.id, 'run');
      await assertMayBuild(runId, principalOf(req));
      if (witnesses.size > 0) await checkpointCosignedForRun(runId);
      const binder = await service.transactional((s) => s.build(runId, principalOf(req).sub));
      res.status(201).location(`/api/evidence/binders/${binder.binder_id}`);
      await sendJsonText(res, service.json(binder));
    },
  });

  defineRoute<{ query: ListBindersQuery }>({
    method: 'get',
    path: '/api/evidence/binders',
    operationId: 'listBinders',
    summary: 'List binders, optionally of one run (keyset pagination)',
    description: `Newest first, without manifests (read a binder for its manifest); pass \`next_cursor\` as \`cursor\` for the next page. Readable with any of ${READ_SCOPES.join(', ')}.`,
    scopes: READ_SCOPES,
    query: listBindersQuerySchema,
    responses: {
      200: {
        description: 'A page of binders',
        schema: binderListResponseSchema,
        schemaName: 'BinderList',
        example: {
          items: [
            { ...Object.fromEntries(Object.entries(binderExample).filter(([field]) => field !== 'manifest')), created_by: 'auditor-carol' },
          ],
          next_cursor: null,
        },
      },
      400: { description: 'An unknown or malformed query parameter, or a cursor this service did not issue' },
      ...AUTH_ERRORS,
    },
    handler: async (_req, res, { query }) => {
      res.json(await service.list(query));
    },
  });

  defineRoute({
    method: 'get',
    path: '/api/evidence/binders/{id}',
    operationId: 'getBinder',
    summary: 'Read a binder',
    description: `Readable with any of ${READ_SCOPES.join(', ')}.`,
    scopes: READ_SCOPES,
    responses: {
      200: { description: 'The binder', schema: binderSchema, schemaName: 'Binder', example: binderExample },
      ...AUTH_ERRORS,
      404: { description: 'No such binder' },
    },
    handler: async (req, res) => {
      const binder = await service.find(assertUuidPath(req.params.id, 'binder'));
      await sendJsonText(res, service.json(binder));
    },
  });

  defineRoute({
    method: 'get',
    // binder-archives, not binders/{id}/download, which shares its shape with binders/run/{id} (Redocly's
    // no-ambiguous-paths); download URLs handed out before are still served, undocumented.
    path: '/api/evidence/binder-archives/{id}',
    aliases: ['/api/evidence/binders/{id}/download'],
    operationId: 'downloadBinder',
    summary: 'Download a binder as a zip (streamed)',
    description:
      'manifest.json (canonical, the hashed bytes), evidence/<sha256>-<name> files, audit.jsonl, index.html, SHA256SUMS (for `sha256sum -c`), VERIFY.md, and when a checkpoint covers the records checkpoint-message.bin, checkpoint.sig and audit-public-key.pem (for `openssl pkeyutl -verify`).',
    scopes: ['audit:read'],
    responses: {
      200: { description: 'The zip', contentType: 'application/zip', schema: { type: 'string', contentMediaType: 'application/zip' } },
      ...AUTH_ERRORS,
      404: { description: 'No such binder' },
    },
    handler: async (req, res) => {
      const contents = await service.zipContents(assertUuidPath(req.params.id, 'binder'));
      const { binder } = contents;
      res.status(200);
      setDownloadHeaders(res, { contentType: 'application/zip', fileName: `binder-${binder.binder_id}.zip` });
      const { archive, abort } = streamZip(contents);
      archive.on('error', (error) => {
        deps.logger.error({ err: error, binder_id: binder.binder_id }, 'binder zip failed while streaming');
        res.destroy(error);
      });
      // A client that goes away mid-download must not leave the archive reading the database and files.
      res.on('close', () => {
        if (!res.writableFinished) abort();
      });
      archive.pipe(coalesce()).pipe(res);
    },
  });

  return router;
}
