import { sha256HexOf } from '@platform/merkle';
import { canonicalJson } from '@platform/canonical-json';
import type { FromSchema } from '@platform/http';

/** prev_hash of the first record of the chain. */
export const GENESIS_HASH = '0'.repeat(64);

export const AUDIT_SEQ = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
export const SHA256_HEX = { type: 'string', pattern: '^[0-9a-f]{64}$' } as const;

/** One record of the audit log, exactly as it is hashed (plus the hash itself) and as the API returns it. */
export const auditRecordSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'seq',
    'action',
    'source',
    'entity_type',
    'entity_id',
    'actor',
    'event_id',
    'occurred_at',
    'recorded_at',
    'data',
    'prev_hash',
    'hash',
  ],
  properties: {
    seq: AUDIT_SEQ,
    action: { type: 'string' },
    source: { type: 'string', enum: ['evidence', 'claims'] },
    entity_type: { type: 'string' },
    entity_id: { type: 'string' },
    actor: { type: 'string' },
    event_id: { type: ['string', 'null'], description: 'The CloudEvents id of a consumed event' },
    occurred_at: { type: 'string', format: 'date-time' },
    recorded_at: { type: 'string', format: 'date-time' },
    data: { type: 'object' },
    prev_hash: SHA256_HEX,
    hash: { ...SHA256_HEX, description: 'SHA-256 hex of prev_hash followed by the RFC 8785 canonical JSON of every other field' },
  },
} as const;

export type AuditRecord = FromSchema<typeof auditRecordSchema>;
export type AuditSource = AuditRecord['source'];

/** The canonical JSON that is hashed: every field of the record except `hash`. */
export function canonicalRecord(record: Omit<AuditRecord, 'hash'>): string {
  const { seq, action, source, entity_type, entity_id, actor, event_id, occurred_at, recorded_at, data, prev_hash } = record;
  return canonicalJson({ seq, action, source, entity_type, entity_id, actor, event_id, occurred_at, recorded_at, data, prev_hash });
}

/** hash = SHA-256( prev_hash (64 lowercase hex characters) ‖ canonical JSON of the record ), hex. */
export function recordHash(record: Omit<AuditRecord, 'hash'>): string {
  return chainHash(record.prev_hash, Buffer.from(canonicalRecord(record), 'utf8'));
}

/** The chain hash from the stored canonical bytes (the record's Merkle leaf), without canonicalising again. */
export function chainHash(prevHash: string, leafBytes: Uint8Array): string {
  return sha256HexOf(prevHash, leafBytes);
}

/** A timestamp in the one form the chain stores: ISO 8601, UTC, milliseconds. Throws when invalid. */
export function chainTimestamp(value: string | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a timestamp: ${String(value)}`);
  return date.toISOString();
}
