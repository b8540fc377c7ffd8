import { createHash } from 'node:crypto';
import { canonicalJson } from '@platform/canonical-json';

/** prev_hash of the first record of the chain. */
export const GENESIS_HASH = '0'.repeat(64);

export type AuditSource = 'evidence' | 'claims';

/** One record of the audit log, exactly as it is hashed (plus the hash itself). */
export interface AuditRecord {
  seq: number;
  action: string;
  source: AuditSource;
  entity_type: string;
  entity_id: string;
  actor: string;
  event_id: string | null;
  occurred_at: string;
  recorded_at: string;
  data: Record<string, unknown>;
  prev_hash: string;
  hash: string;
}

/** The canonical JSON that is hashed: every field of the record except `hash`. */
export function canonicalRecord(record: Omit<AuditRecord, 'hash'>): string {
  const { seq, action, source, entity_type, entity_id, actor, event_id, occurred_at, recorded_at, data, prev_hash } = record;
  return canonicalJson({ seq, action, source, entity_type, entity_id, actor, event_id, occurred_at, recorded_at, data, prev_hash });
}

/** hash = SHA-256( prev_hash (64 lowercase hex characters) ‖ canonical JSON of the record ), hex. */
export function recordHash(record: Omit<AuditRecord, 'hash'>): string {
  return createHash('sha256').update(record.prev_hash, 'utf8').update(canonicalRecord(record), 'utf8').digest('hex');
}

/** A timestamp in the one form the chain stores: ISO 8601, UTC, milliseconds. Throws when invalid. */
export function chainTimestamp(value: string | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a timestamp: ${String(value)}`);
  return date.toISOString();
}
