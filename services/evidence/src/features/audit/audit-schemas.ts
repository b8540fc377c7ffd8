import type { FromSchema } from '@platform/http';
import { AUDIT_SEQ as seq, SHA256_HEX as hash, auditRecordSchema } from '../../shared/audit-chain';

/** JSON Schemas (2020-12) of the audit endpoints' queries and responses; the OpenAPI document uses the same. */
const cursorSeq = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;
const limit = { type: 'integer', minimum: 1, maximum: 500, default: 100 } as const;

export const verifyQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    from_seq: { ...seq, description: 'First record to verify (default 1); its link to the record before is checked' },
    to_seq: { ...seq, description: 'Last record to verify (default: the head)' },
  },
} as const;
export type VerifyQuery = FromSchema<typeof verifyQuerySchema>;

export const recordsQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    entity_id: { type: 'string', minLength: 1, maxLength: 200 },
    source: auditRecordSchema.properties.source,
    action: { type: 'string', minLength: 1, maxLength: 200 },
    entity_type: { type: 'string', minLength: 1, maxLength: 100 },
    actor: { type: 'string', minLength: 1, maxLength: 200, description: 'Exactly this actor (as recorded)' },
    recorded_from: { type: 'string', format: 'date-time', description: 'Only records recorded at or after this instant' },
    recorded_before: { type: 'string', format: 'date-time', description: 'Only records recorded before this instant' },
    after_seq: { ...cursorSeq, description: "Only records after this seq (a previous page's next_cursor)" },
    limit,
  },
} as const;
export type RecordsQuery = FromSchema<typeof recordsQuerySchema, { keepDefaultedPropertiesOptional: true }>;

export const checkpointsQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { after_seq: cursorSeq, limit },
} as const;
export type CheckpointsQuery = FromSchema<typeof checkpointsQuerySchema, { keepDefaultedPropertiesOptional: true }>;

export const checkpointSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['seq', 'hash', 'signed_at', 'signature', 'key_id', 'note'],
  properties: {
    seq,
    hash,
    signed_at: { type: 'string', format: 'date-time' },
    signature: { type: 'string', description: 'Base64 Ed25519 signature of the canonical JSON {"hash":…,"seq":…}' },
    key_id: { type: 'string', description: 'First 16 hex characters of SHA-256 over the public key (SPKI DER)' },
    note: {
      type: ['string', 'null'],
      description:
        'The Merkle tree head of the first seq records as a C2SP signed checkpoint note (null for checkpoints taken before the tree)',
    },
  },
} as const;

const nextCursor = { type: ['string', 'null'], description: 'Pass as after_seq for the next page; null on the last page' } as const;

export const recordsPageSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['items', 'next_cursor'],
  properties: { items: { type: 'array', items: auditRecordSchema }, next_cursor: nextCursor },
} as const;

export const checkpointsPageSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['items', 'next_cursor'],
  properties: { items: { type: 'array', items: checkpointSchema }, next_cursor: nextCursor },
} as const;

export const verificationSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['valid', 'records_checked', 'first_seq', 'last_seq', 'head_hash', 'checkpoint', 'first_invalid', 'verified_at', 'duration_ms'],
  properties: {
    valid: { type: 'boolean' },
    records_checked: { type: 'integer', minimum: 0 },
    first_seq: { type: ['integer', 'null'] },
    last_seq: { type: ['integer', 'null'] },
    head_hash: { type: ['string', 'null'], description: 'Hash of the last record checked' },
    checkpoint: {
      description: 'The latest checkpoint in the range that was checked',
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          additionalProperties: false,
          required: ['seq', 'hash', 'signed_at', 'signature_valid'],
          properties: { seq, hash, signed_at: { type: 'string', format: 'date-time' }, signature_valid: { type: 'boolean' } },
        },
      ],
    },
    first_invalid: {
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          additionalProperties: false,
          required: ['seq', 'reason'],
          properties: {
            seq,
            reason: {
              type: 'string',
              enum: [
                'edited_record',
                'broken_link',
                'gap',
                'checkpoint_mismatch',
                'bad_signature',
                'truncated',
                'tree_mismatch',
                'witness_refused',
              ],
            },
          },
        },
      ],
    },
    verified_at: { type: 'string', format: 'date-time' },
    duration_ms: { type: 'integer', minimum: 0 },
  },
} as const;

export type AuditCheckpoint = FromSchema<typeof checkpointSchema>;
export type VerificationReport = FromSchema<typeof verificationSchema>;
export type BreakReason = NonNullable<VerificationReport['first_invalid']>['reason'];

const treeSize = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
const base64Hash = { type: 'string', contentEncoding: 'base64', description: 'A SHA-256 hash, base64' } as const;

export const inclusionQuerySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['index', 'tree_size'],
  properties: {
    index: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Leaf index: the record seq - 1' },
    tree_size: { ...treeSize, description: "Size of the tree (a checkpoint's size); more than index, at most the current size" },
  },
} as const;
export type InclusionQuery = FromSchema<typeof inclusionQuerySchema>;

export const consistencyQuerySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['from', 'to'],
  properties: {
    from: { ...treeSize, description: 'The older tree size' },
    to: { ...treeSize, description: 'The newer tree size: at least from, at most the current size' },
  },
} as const;
export type ConsistencyQuery = FromSchema<typeof consistencyQuerySchema>;

export const inclusionProofSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['leaf_index', 'tree_size', 'leaf_hash', 'proof'],
  properties: {
    leaf_index: { type: 'integer', minimum: 0 },
    tree_size: treeSize,
    leaf_hash: { ...base64Hash, description: "SHA-256(0x00 ‖ the record's canonical bytes), base64" },
    proof: { type: 'array', items: base64Hash, description: "RFC 9162 §2.1.3 inclusion path, the leaf's sibling first" },
  },
} as const;
export type InclusionProof = FromSchema<typeof inclusionProofSchema>;

export const consistencyProofSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['from', 'to', 'proof'],
  properties: {
    from: treeSize,
    to: treeSize,
    proof: { type: 'array', items: base64Hash, description: 'RFC 9162 §2.1.4 consistency proof (empty when from equals to)' },
  },
} as const;
export type ConsistencyProof = FromSchema<typeof consistencyProofSchema>;
