export { appendAuditRecord, listAuditRecords, latestCheckpointCovering, type AuditRecordInput, type AuditCheckpoint } from './audit-store';
export { GENESIS_HASH, recordHash, type AuditRecord, type AuditSource } from './audit-chain';
export { checkpointMessage } from './checkpoint-signer';
export { auditLogMigration } from './migrations';
