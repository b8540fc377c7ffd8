import type { FromSchema } from '@platform/http';
import { eventKind, eventSchemaId } from '@platform/messaging';

/** `data` of `witness.consistency_failed`: the hosted witness refused a checkpoint of the evidence audit log. */
export const witnessConsistencyFailedData = {
  $id: eventSchemaId('witness.consistency_failed', 1),
  type: 'object',
  additionalProperties: false,
  required: ['origin', 'reason', 'cosigned_size', 'offered_size', 'cosigned_checkpoint', 'offered_checkpoint', 'proof', 'refused_at'],
  properties: {
    origin: { type: 'string', description: 'The log (its checkpoint origin line)' },
    reason: {
      enum: ['truncated', 'forked', 'inconsistent'],
      description: 'Smaller than what was cosigned; same size, other root; or no valid consistency proof',
    },
    cosigned_size: { type: 'integer', minimum: 1 },
    offered_size: { type: 'integer', minimum: 0 },
    cosigned_checkpoint: { type: 'string', description: 'The last checkpoint note the witness cosigned, with its cosignature' },
    offered_checkpoint: { type: 'string', description: 'The checkpoint note it refused' },
    proof: { type: ['array', 'null'], items: { type: 'string' }, description: 'The consistency proof the log served (base64), if any' },
    refused_at: { type: 'string', format: 'date-time' },
  },
} as const;

export const witnessConsistencyFailed = eventKind<FromSchema<typeof witnessConsistencyFailedData>>({
  type: 'witness.consistency_failed',
  summary: 'The witness hosted by the claims service refused an evidence audit checkpoint: the log was rewritten, truncated or forked',
  schema: witnessConsistencyFailedData,
});
