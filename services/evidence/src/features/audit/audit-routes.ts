import { Router, type Request, type Response } from 'express';
import { authenticate, requireScope } from '@platform/auth';
import { parseQuery, problems } from '@platform/http';
import type { ServiceDeps } from '@platform/runtime';
import type { EvidenceConfig } from '../../config';
import { listAuditRecords, listCheckpoints } from './audit-store';
import { verifyAuditChain } from './audit-verify';
import type { CheckpointSigner } from './checkpoint-signer';
import {
  checkpointsPageSchema,
  checkpointsQuerySchema,
  recordsPageSchema,
  recordsQuerySchema,
  verificationSchema,
  verifyQuerySchema,
  type CheckpointsQuery,
  type RecordsQuery,
  type VerifyQuery,
} from './audit-schemas';

const AUDIT_READ = 'audit:read';
const DEFAULT_LIMIT = 100;
const errors = {
  400: { description: 'A query parameter is invalid' },
  401: { description: 'No credentials, or credentials that do not verify' },
  403: { description: 'The caller lacks audit:read' },
  503: { description: 'The database is unavailable' },
};

function nextCursor<T extends { seq: number }>(items: T[], limit: number): string | null {
  return items.length === limit ? String(items[items.length - 1].seq) : null;
}

/** GET /api/evidence/audit/{verify,records,checkpoints,public-key}, all behind audit:read. */
export function auditRoutes(deps: ServiceDeps, config: EvidenceConfig, signer: CheckpointSigner): Router {
  const router = Router();
  const guard = [authenticate(deps.verifyToken), requireScope(AUDIT_READ)];
  const tags = ['audit'];
  const security = { scope: AUDIT_READ };

  deps.openapi.operation('get', '/api/evidence/audit/verify', {
    summary: 'Verify the audit hash chain and its signed checkpoints',
    description:
      'Streams the chain in pages, recomputes every hash and link, checks that sequence numbers are gapless and that every ' +
      'checkpoint in range is signed by the service key and matches its record; a checkpoint beyond the last record means ' +
      'truncation. Stops at the first break. valid:false is still a 200.',
    tags,
    security,
    parameters: [
      { name: 'from_seq', in: 'query', schema: verifyQuerySchema.properties.from_seq },
      { name: 'to_seq', in: 'query', schema: verifyQuerySchema.properties.to_seq },
    ],
    responses: { 200: { description: 'The verification report', schema: verificationSchema }, ...errors },
  });
  router.get('/api/evidence/audit/verify', ...guard, async (req: Request, res: Response) => {
    const query = parseQuery<VerifyQuery>(verifyQuerySchema, req.query);
    if (query.from_seq !== undefined && query.to_seq !== undefined && query.from_seq > query.to_seq) {
      throw problems.badRequest('Query: from_seq must not be after to_seq', [{ pointer: '/from_seq', message: 'must be less than or equal to to_seq' }]);
    }
    res.json(await verifyAuditChain(deps.db, signer, { fromSeq: query.from_seq, toSeq: query.to_seq, pageSize: config.AUDIT_VERIFY_PAGE_SIZE }));
  });

  deps.openapi.operation('get', '/api/evidence/audit/records', {
    summary: 'Page through audit records, oldest first',
    tags,
    security,
    parameters: Object.entries(recordsQuerySchema.properties).map(([name, schema]) => ({ name, in: 'query' as const, schema })),
    responses: { 200: { description: 'A page of records', schema: recordsPageSchema }, ...errors },
  });
  router.get('/api/evidence/audit/records', ...guard, async (req: Request, res: Response) => {
    const query = parseQuery<RecordsQuery>(recordsQuerySchema, req.query);
    const limit = query.limit ?? DEFAULT_LIMIT;
    const items = await listAuditRecords(deps.db, { ...query, limit });
    res.json({ items, next_cursor: nextCursor(items, limit) });
  });

  deps.openapi.operation('get', '/api/evidence/audit/checkpoints', {
    summary: 'Page through the signed checkpoints, oldest first',
    tags,
    security,
    parameters: Object.entries(checkpointsQuerySchema.properties).map(([name, schema]) => ({ name, in: 'query' as const, schema })),
    responses: { 200: { description: 'A page of checkpoints', schema: checkpointsPageSchema }, ...errors },
  });
  router.get('/api/evidence/audit/checkpoints', ...guard, async (req: Request, res: Response) => {
    const query = parseQuery<CheckpointsQuery>(checkpointsQuerySchema, req.query);
    const limit = query.limit ?? DEFAULT_LIMIT;
    const items = await listCheckpoints(deps.db, { after_seq: query.after_seq, limit });
    res.json({ items, next_cursor: nextCursor(items, limit) });
  });

  deps.openapi.operation('get', '/api/evidence/audit/public-key', {
    summary: 'The Ed25519 public key that signs checkpoints (PEM, SPKI)',
    description: 'For checking checkpoint signatures offline; X-Audit-Key-Id carries the key id stored with each checkpoint.',
    tags,
    security,
    responses: {
      200: { description: 'The public key', contentType: 'application/x-pem-file', schema: { type: 'string' }, headers: { 'X-Audit-Key-Id': 'The key id' } },
      401: errors[401],
      403: errors[403],
    },
  });
  router.get('/api/evidence/audit/public-key', ...guard, (_req: Request, res: Response) => {
    const { publicKeyPem, keyId } = signer;
    res.setHeader('X-Audit-Key-Id', keyId);
    res.type('application/x-pem-file').send(publicKeyPem);
  });

  return router;
}
