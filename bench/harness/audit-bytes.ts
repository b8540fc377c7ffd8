import { canonicalRecord, type AuditRecord } from '../../services/evidence/src/shared/audit-chain';

/** The exact bytes the chain hashes for one record: prev_hash ‖ canonical JSON (audit-chain.ts). */
export function canonicalRecordBytes(record: Omit<AuditRecord, 'hash'>): Buffer {
  return Buffer.from(record.prev_hash + canonicalRecord(record), 'utf8');
}
