export { checkpointCovering, startCheckpointer } from './audit-checkpoints';
export { auditBreakDetected, auditCheckpoint } from './audit-events';
export { auditRoutes } from './audit-routes';
export { auditStore } from './audit-store';
export { startAuditWatcher } from './audit-watch';
export { auditWitnessRoutes } from './audit-witness-routes';
export { awaitCosignatures, cosignedCheckpointNote, trustedWitnesses } from './audit-witnesses';
export { checkpointMessage, checkpointSignerFor, type CheckpointSigner } from './checkpoint-signer';
