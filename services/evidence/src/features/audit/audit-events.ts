import type { FromSchema } from '@platform/http';
import { eventKind, eventSchemaId } from '@platform/messaging';
import { checkpointSchema } from './audit-schemas';

/** `data` of `evidence.audit_checkpoint`: the checkpoint as GET /api/evidence/audit/checkpoints lists it. */
export const auditCheckpointData = { $id: eventSchemaId('evidence.audit_checkpoint', 1), ...checkpointSchema } as const;

export const auditCheckpoint = eventKind<FromSchema<typeof auditCheckpointData>>({
  type: 'evidence.audit_checkpoint',
  summary: 'The head of the audit chain was signed (an Ed25519 checkpoint anyone can verify with the public key)',
  schema: auditCheckpointData,
});
