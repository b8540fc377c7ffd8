import type { FromSchema } from '@platform/http';
import { eventKind, eventSchemaId } from '@platform/messaging';
import { checkpointSchema, verificationSchema } from './audit-schemas';

/** `data` of `evidence.audit_checkpoint`: the checkpoint as GET /api/evidence/audit/checkpoints lists it. */
export const auditCheckpointData = { $id: eventSchemaId('evidence.audit_checkpoint', 1), ...checkpointSchema } as const;

export const auditCheckpoint = eventKind<FromSchema<typeof auditCheckpointData>>({
  type: 'evidence.audit_checkpoint',
  summary: 'The head of the audit chain was signed (an Ed25519 checkpoint anyone can verify with the public key)',
  schema: auditCheckpointData,
});

/** `data` of `evidence.audit_break_detected`: the first break the background verifier found. */
export const auditBreakData = {
  $id: eventSchemaId('evidence.audit_break_detected', 1),
  type: 'object',
  additionalProperties: false,
  required: ['seq', 'reason', 'verified_size', 'tree_size', 'detected_at'],
  properties: {
    seq: { type: 'integer', minimum: 0, description: 'Where the log breaks (the record, checkpoint or tree size named by the reason)' },
    reason: {
      type: 'string',
      enum: [...verificationSchema.properties.first_invalid.oneOf[1].properties.reason.enum, 'history_rewritten'],
      description: 'A reason of GET /audit/verify, or history_rewritten: the newest tree head does not extend the one verified before',
    },
    verified_size: { type: 'integer', minimum: 0, description: 'The tree size verified before this pass' },
    tree_size: { type: 'integer', minimum: 0, description: 'The size of the newest tree head' },
    detected_at: { type: 'string', format: 'date-time' },
  },
} as const;
export type AuditBreak = FromSchema<typeof auditBreakData>;

export const auditBreakDetected = eventKind<AuditBreak>({
  type: 'evidence.audit_break_detected',
  summary: 'The background verifier found the audit log broken (announced once)',
  schema: auditBreakData,
});
