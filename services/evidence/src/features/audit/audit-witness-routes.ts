import type { Router } from 'express';
import { parseQuery } from '@platform/http';
import { featureRoutes, type ServiceDeps } from '@platform/runtime';
import { addCosignature, addWitnessRefusal, type TrustedWitnesses, type WitnessRefusalReport } from './audit-witnesses';

const AUDIT_WITNESS = 'audit:witness';
const signatureLine = { type: 'string', minLength: 1, maxLength: 1000 } as const;
const checkpointNote = { type: 'string', minLength: 1, maxLength: 100000 } as const;

const sizePathSchema = { type: 'object', required: ['size'], properties: { size: { type: 'integer', minimum: 1 } } } as const;
const cosignatureRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['cosignature'],
  properties: {
    cosignature: {
      ...signatureLine,
      description: 'One c2sp.org/tlog-cosignature (cosignature/v1) signature line over the checkpoint of this size',
    },
  },
} as const;
const cosignatureResponseSchema = {
  type: 'object',
  required: ['size', 'witness', 'cosigned_at'],
  properties: {
    size: { type: 'integer' },
    witness: { type: 'string' },
    cosigned_at: { type: 'integer', description: 'Unix seconds, as the witness signed it' },
  },
} as const;
const refusalRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['witness', 'reason', 'cosigned_checkpoint', 'offered_checkpoint', 'proof', 'refused_at'],
  properties: {
    witness: { type: 'string', minLength: 1, maxLength: 200 },
    reason: { type: 'string', enum: ['truncated', 'forked', 'inconsistent'] },
    cosigned_checkpoint: { ...checkpointNote, description: 'The last checkpoint note the witness cosigned' },
    offered_checkpoint: { ...checkpointNote, description: 'The checkpoint note it refused' },
    proof: {
      type: ['array', 'null'],
      maxItems: 128,
      items: { type: 'string', maxLength: 64 },
      description: 'The consistency proof the log served (base64), if it served one',
    },
    refused_at: { type: 'string', format: 'date-time' },
  },
} as const;
const errors = {
  400: { description: 'The body or path is invalid' },
  401: { description: 'No credentials, or credentials that do not verify' },
  403: { description: 'The caller lacks audit:witness' },
  422: { description: 'Not a trusted witness (AUDIT_WITNESS_KEYS), or the cosignature does not verify' },
  503: { description: 'The database is unavailable' },
};

/** POST /api/evidence/audit/checkpoints/{size}/cosignatures and /audit/witness-refusals: what witnesses hand back (audit:witness). */
export function auditWitnessRoutes(deps: ServiceDeps, witnesses: TrustedWitnesses): Router {
  const { router, defineRoute } = featureRoutes(deps, 'Audit');

  defineRoute<{ body: { cosignature: string } }>({
    method: 'post',
    path: '/api/evidence/audit/checkpoints/{size}/cosignatures',
    operationId: 'addAuditCosignature',
    summary: 'Hand in a witness cosignature of a checkpoint',
    description:
      'The signature line is checked against the configured key of the witness it names, over the stored checkpoint note of this tree size; ' +
      'then GET /audit/checkpoint carries it. Idempotent: the same witness and size again is a 200.',
    scopes: [AUDIT_WITNESS],
    parameters: [{ name: 'size', in: 'path', schema: sizePathSchema.properties.size, required: true }],
    body: {
      contentType: 'application/json',
      schema: cosignatureRequestSchema,
      example: { cosignature: '— claims-platform-witness 2kbMVgAAAABnQZ9A…\n' },
    },
    responses: {
      201: {
        description: 'Stored',
        schema: cosignatureResponseSchema,
        example: { size: 1042, witness: 'claims-platform-witness', cosigned_at: 1763805600 },
      },
      200: {
        description: 'Already stored',
        schema: cosignatureResponseSchema,
        example: { size: 1042, witness: 'claims-platform-witness', cosigned_at: 1763805600 },
      },
      404: { description: 'No checkpoint note of this tree size' },
      ...errors,
    },
    handler: async (req, res, { body }) => {
      const { size } = parseQuery<{ size: number }>(sizePathSchema, req.params);
      const stored = await addCosignature(deps.db, witnesses, size, body.cosignature);
      res.status(stored.created ? 201 : 200).json({ size, witness: stored.witness, cosigned_at: stored.cosigned_at });
    },
  });

  defineRoute<{ body: WitnessRefusalReport }>({
    method: 'post',
    path: '/api/evidence/audit/witness-refusals',
    operationId: 'reportWitnessRefusal',
    summary: 'A witness reports a checkpoint it refused to cosign',
    description:
      'A trusted witness found a checkpoint that does not extend the one it cosigned before (truncated, forked, or a consistency proof that fails). ' +
      'The report and its evidence are kept; GET /audit/verify then answers valid:false with first_invalid.reason witness_refused.',
    scopes: [AUDIT_WITNESS],
    body: {
      contentType: 'application/json',
      schema: refusalRequestSchema,
      example: {
        witness: 'claims-platform-witness',
        reason: 'inconsistent',
        cosigned_checkpoint: 'evidence.claims-platform/audit-log\n1042\n…\n\n— evidence.claims-platform/audit-log …\n',
        offered_checkpoint: 'evidence.claims-platform/audit-log\n1043\n…\n\n— evidence.claims-platform/audit-log …\n',
        proof: ['DrxdNDf74tsVi58Sah0RjjCBgQMdCpSfje3t68VY72o='],
        refused_at: '2026-11-22T10:05:00Z',
      },
    },
    responses: {
      201: {
        description: 'Kept',
        schema: { type: 'object', required: ['offered_size'], properties: { offered_size: { type: 'integer' } } },
        example: { offered_size: 1043 },
      },
      ...errors,
    },
    handler: async (_req, res, { body }) => {
      res.status(201).json(await addWitnessRefusal(deps.db, witnesses, body));
    },
  });

  return router;
}
