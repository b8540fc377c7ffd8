import type { FromSchema } from '@platform/http';
import { eventKind, eventSchemaId } from '@platform/messaging';
import { claimEventProperties } from '../../shared/claim-change';
import { CLAIM_STAGES } from '../../shared/claim-vocabulary';

/** `data` of `claim.update_overdue`. */
export const claimUpdateOverdueData = {
  $id: eventSchemaId('claim.update_overdue', 1),
  type: 'object',
  additionalProperties: false,
  required: ['claim_id', 'actor', 'next_update_due', 'stage'],
  properties: {
    ...claimEventProperties,
    next_update_due: { type: 'string', format: 'date-time', description: 'When the promised update was due' },
    stage: { enum: [...CLAIM_STAGES] },
  },
} as const;

export const claimUpdateOverdue = eventKind<FromSchema<typeof claimUpdateOverdueData>>({
  type: 'claim.update_overdue',
  summary: 'A claim passed the date its last status update promised the next one by (announced once per promise)',
  schema: claimUpdateOverdueData,
});
