import type { Router } from 'express';
import { READ_SCOPES } from '../../shared/access';
import { problems } from '@platform/http';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import type { EvidenceConfig } from '../../config';
import { auditStore } from './audit-store';
import { takeCheckpoint } from './audit-checkpoints';
import { verifyAuditChain } from './audit-verify';
import { cosignedCheckpointNote } from './audit-witnesses';
import { auditConsistencyProof, auditInclusionProof } from './audit-proofs';
import type { CheckpointSigner } from './checkpoint-signer';
import {
  checkpointsPageSchema,
  checkpointsQuerySchema,
  consistencyProofSchema,
  consistencyQuerySchema,
  inclusionProofSchema,
  inclusionQuerySchema,
  type ConsistencyQuery,
  type InclusionQuery,
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

/** GET /api/evidence/audit/{verify,records,checkpoints,checkpoint,proofs/*,public-key}, all behind audit:read. */
export function auditRoutes(deps: ServiceDeps, config: EvidenceConfig, signer: CheckpointSigner): Router {
  const { router, defineRoute } = featureRoutes(deps, 'Audit');

  defineRoute<{ query: VerifyQuery }>({
    method: 'get',
    path: '/api/evidence/audit/verify',
    operationId: 'verifyAuditLog',
    summary: 'Verify the audit hash chain and its signed checkpoints',
    description:
      'Streams the chain in pages, recomputes every hash and link, checks that sequence numbers are gapless and that every ' +
      'checkpoint in range is signed by the service key and matches its record; a checkpoint beyond the last record means ' +
      'truncation. Stops at the first break. valid:false is still a 200.',
    scopes: [AUDIT_READ],
    query: verifyQuerySchema,
    responses: {
      200: {
        description: 'The verification report',
        schema: verificationSchema,
        example: {
          valid: true,
          records_checked: 1042,
          first_seq: 1,
          last_seq: 1042,
          head_hash: '5f0c1d8e2b7a4c3f9e6d1a0b8c7e5f4d3c2b1a09f8e7d6c5b4a39281706f5e4d',
          checkpoint: {
            seq: 1024,
            hash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
            signed_at: '2026-11-22T10:00:00Z',
            signature_valid: true,
          },
          first_invalid: null,
          verified_at: '2026-11-22T10:05:00Z',
          duration_ms: 87,
        },
      },
      ...errors,
    },
    handler: async (_req, res, { query }) => {
      if (query.from_seq !== undefined && query.to_seq !== undefined && query.from_seq > query.to_seq) {
        throw problems.badRequest('Query: from_seq must not be after to_seq', [
          { pointer: '/from_seq', message: 'must be less than or equal to to_seq' },
        ]);
      }
      res.json(
        await verifyAuditChain(deps.db, signer, { fromSeq: query.from_seq, toSeq: query.to_seq, pageSize: config.AUDIT_VERIFY_PAGE_SIZE }),
      );
    },
  });

  defineRoute<{ query: RecordsQuery }>({
    method: 'get',
    path: '/api/evidence/audit/records',
    operationId: 'listAuditRecords',
    summary: 'Page through audit records, oldest first',
    scopes: [AUDIT_READ],
    query: recordsQuerySchema,
    responses: {
      200: {
        description: 'A page of records',
        schema: recordsPageSchema,
        example: {
          items: [
            {
              seq: 1,
              action: 'claim.created',
              source: 'claims',
              entity_type: 'claim',
              entity_id: '6f1c2a4e-8b3d-4c5e-9f7a-1b2c3d4e5f60',
              actor: 'claimant',
              event_id: 'd9e8f7a6-b5c4-4d3e-8f2a-1b0c9d8e7f6a',
              occurred_at: '2026-11-22T10:00:00Z',
              recorded_at: '2026-11-22T10:00:01Z',
              data: { claim_id: '6f1c2a4e-8b3d-4c5e-9f7a-1b2c3d4e5f60', loss_type: 'auto_collision' },
              prev_hash: '0000000000000000000000000000000000000000000000000000000000000000',
              hash: '5f0c1d8e2b7a4c3f9e6d1a0b8c7e5f4d3c2b1a09f8e7d6c5b4a39281706f5e4d',
            },
          ],
          next_cursor: '1',
        },
      },
      ...errors,
    },
    handler: async (_req, res, { query }) => {
      const limit = query.limit ?? DEFAULT_LIMIT;
      const items = await auditStore(deps.db).listHashedRecords({ ...query, limit });
      res.json({ items, next_cursor: nextCursor(items, limit) });
    },
  });

  defineRoute<{ query: CheckpointsQuery }>({
    method: 'get',
    path: '/api/evidence/audit/checkpoints',
    operationId: 'listAuditCheckpoints',
    summary: 'Page through the signed checkpoints, oldest first',
    scopes: [AUDIT_READ],
    query: checkpointsQuerySchema,
    responses: {
      200: {
        description: 'A page of checkpoints',
        schema: checkpointsPageSchema,
        example: {
          items: [
            {
              seq: 1024,
              hash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
              signed_at: '2026-11-22T10:00:00Z',
              signature: 'MEUCIQDx2l0Jd3k5w8Q9b1m4n7r2t6y0u3i5o8p1a4s7d0f3gA==',
              key_id: 'audit-2026',
              note: 'evidence.claims-platform/audit-log\n1024\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n\n— evidence.claims-platform/audit-log x1Pn8yNqIxHmv0VmfUyq9QE3kAYsVJbLn1nQfZ4G0H1z2Ws0Mjo7Xz0Q0t9wZkS3rR8Cq3dYbV0mE6pW2sA4LhqT1Qw=\n',
            },
          ],
          next_cursor: null,
        },
      },
      ...errors,
    },
    handler: async (_req, res, { query }) => {
      const limit = query.limit ?? DEFAULT_LIMIT;
      const items = await auditStore(deps.db).listCheckpoints({ after_seq: query.after_seq, limit });
      res.json({ items, next_cursor: nextCursor(items, limit) });
    },
  });

  defineRoute({
    method: 'get',
    path: '/api/evidence/audit/checkpoint',
    operationId: 'getAuditCheckpoint',
    summary: 'The latest signed tree head as a C2SP checkpoint note',
    description:
      'c2sp.org/tlog-checkpoint: the origin line, the tree size, the base64 root hash, a blank line, then the signature line ' +
      '"— <origin> <base64(4-byte key hash ‖ Ed25519 signature)>" (c2sp.org/signed-note) by the service key, followed by the ' +
      'cosignature lines of the witnesses that cosigned it (c2sp.org/tlog-cosignature, cosignature/v1).',
    scopes: [AUDIT_READ],
    responses: {
      200: { description: 'The signed checkpoint note', contentType: 'text/plain', schema: { type: 'string' } },
      401: errors[401],
      403: errors[403],
      404: { description: 'The log holds no record yet (once it holds one, a checkpoint is always answered)' },
      503: errors[503],
    },
    handler: async (_req, res) => {
      let note = await cosignedCheckpointNote(deps.db);
      // The background checkpointer signs a new record within a moment; a reader who comes first gets one now.
      if (note === undefined && (await takeCheckpoint(deps.db, signer, config.EVIDENCE_EXCHANGE)))
        note = await cosignedCheckpointNote(deps.db);
      if (note === undefined) throw problems.notFound('The log holds no record yet, so nothing is signed');
      res.type('text/plain; charset=utf-8').send(note);
    },
  });

  defineRoute<{ query: InclusionQuery }>({
    method: 'get',
    path: '/api/evidence/audit/proofs/inclusion',
    operationId: 'getAuditInclusionProof',
    summary: 'RFC 9162 inclusion proof of a record in a tree size',
    description:
      "Leaf index = record seq - 1. Verify with the record's canonical bytes and the root of a checkpoint of tree_size (RFC 9162 §2.1.3.2).",
    scopes: [AUDIT_READ],
    query: inclusionQuerySchema,
    responses: {
      200: {
        description: 'The inclusion proof',
        schema: inclusionProofSchema,
        example: {
          leaf_index: 5,
          tree_size: 8,
          leaf_hash: 'QnGia+DYqE8L1UyMMC58s6O10fpngKQLzOKHNHfatlg=',
          proof: [
            'vBoGQ7EuTS18d5GPROD095qDi2z57FtcKD4fTYhZnms=',
            'yoVOoSjtBQtBs1/8G4e46yveRh6eO1WW7Oa51ZdaCuA=',
            '037kGJdt2VdTwcc4Yrk5j6Kiz5tP8P3+izDNlSCWFLc=',
          ],
        },
      },
      ...errors,
    },
    handler: async (_req, res, { query }) => {
      res.json(await auditInclusionProof(deps.db, query.index, query.tree_size));
    },
  });

  defineRoute<{ query: ConsistencyQuery }>({
    method: 'get',
    path: '/api/evidence/audit/proofs/consistency',
    operationId: 'getAuditConsistencyProof',
    summary: 'RFC 9162 consistency proof between two tree sizes',
    description: 'Proves that the tree of the first `from` records is a prefix of the tree of the first `to` (RFC 9162 §2.1.4.2).',
    scopes: [AUDIT_READ],
    query: consistencyQuerySchema,
    responses: {
      200: {
        description: 'The consistency proof',
        schema: consistencyProofSchema,
        example: {
          from: 6,
          to: 8,
          proof: [
            'DrxdNDf74tsVi58Sah0RjjCBgQMdCpSfje3t68VY72o=',
            'yoVOoSjtBQtBs1/8G4e46yveRh6eO1WW7Oa51ZdaCuA=',
            '037kGJdt2VdTwcc4Yrk5j6Kiz5tP8P3+izDNlSCWFLc=',
          ],
        },
      },
      ...errors,
    },
    handler: async (_req, res, { query }) => {
      res.json(await auditConsistencyProof(deps.db, query.from, query.to));
    },
  });

  defineRoute({
    method: 'get',
    path: '/api/evidence/audit/public-key',
    operationId: 'getAuditPublicKey',
    summary: 'The Ed25519 public key that signs checkpoints (PEM, SPKI)',
    description:
      'For checking checkpoint signatures offline; X-Audit-Key-Id carries the key id stored with each checkpoint, and ' +
      'X-Audit-Verifier-Key the same key as a C2SP verifier key (<origin>+<key hash>+<base64 key>) for checkpoint notes.',
    scopes: [AUDIT_READ],
    responses: {
      200: {
        description: 'The public key',
        contentType: 'application/x-pem-file',
        schema: { type: 'string' },
        headers: { 'X-Audit-Key-Id': 'The key id', 'X-Audit-Verifier-Key': 'The C2SP verifier key of checkpoint notes' },
      },
      401: errors[401],
      403: errors[403],
    },
    handler: (_req, res) => {
      const { publicKeyPem, keyId } = signer;
      res.setHeader('X-Audit-Key-Id', keyId);
      res.setHeader('X-Audit-Verifier-Key', signer.verifierKey);
      res.type('application/x-pem-file').send(publicKeyPem);
    },
  });

  defineRoute({
    method: 'get',
    path: '/api/evidence/audit/verifier-keys',
    operationId: 'getAuditVerifierKeys',
    summary: 'The C2SP verifier keys to pin when verifying a binder offline',
    description:
      "`service`: the service's key (the same as the public key's X-Audit-Verifier-Key); `witnesses`: the witnesses the log trusts " +
      '(AUDIT_WITNESS_KEYS). `node verify.mjs <binder>.zip --service-key <service> [--witness-key <witness>]...` checks a binder with them. ' +
      'Readable with any of evidence:write, evidence:approve, audit:read: whoever can download a binder can see what to verify it with.',
    scopes: READ_SCOPES,
    responses: {
      200: {
        description: 'The verifier keys',
        schema: {
          type: 'object',
          additionalProperties: false,
          required: ['service', 'witnesses'],
          properties: { service: { type: 'string' }, witnesses: { type: 'array', items: { type: 'string' } } },
        },
        example: {
          service: 'evidence.claims-platform/audit-log+3f2a1b9c+AWx0ZXN0LWtleS1ieXRlcy1mb3ItdGhlLWV4YW1wbGUtb25seQ==',
          witnesses: [],
        },
      },
      401: errors[401],
      403: { description: 'The caller has none of evidence:write, evidence:approve, audit:read' },
    },
    handler: (_req, res) => {
      res.json({ service: signer.verifierKey, witnesses: config.AUDIT_WITNESS_KEYS });
    },
  });

  return router;
}
