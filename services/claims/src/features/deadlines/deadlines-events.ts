import type { FromSchema } from '@platform/http';
import { eventKind, eventSchemaId } from '@platform/messaging';
import { claimEventProperties } from '../../shared/claim-change';
import { DEADLINES } from '../../shared/claim-deadlines';
import { CLAIM_STAGES } from '../../shared/claim-vocabulary';

/** `data` of `claim.update_overdue` (CONTRACT.md §5): the `next_update` breach as the contract names it. */
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
  summary:
    'A claim passed the date its last status update promised the next one by (announced once per promise, beside claim.sla_breached)',
  schema: claimUpdateOverdueData,
});

/** `data` of `claim.sla_breached`. */
export const claimSlaBreachedData = {
  $id: eventSchemaId('claim.sla_breached', 1),
  type: 'object',
  additionalProperties: false,
  required: ['claim_id', 'actor', 'deadline', 'due_at', 'stage'],
  properties: {
    ...claimEventProperties,
    deadline: {
      enum: [...DEADLINES],
      description:
        'Which deadline passed unmet: the acknowledgement reaching the claimant, the first contact by an adjuster, or the promised next update',
    },
    due_at: { type: 'string', format: 'date-time', description: 'When it was due' },
    stage: { enum: [...CLAIM_STAGES] },
  },
} as const;

export const claimSlaBreached = eventKind<FromSchema<typeof claimSlaBreachedData>>({
  type: 'claim.sla_breached',
  summary: 'An open claim passed one of its deadlines unmet (announced once per deadline and due moment)',
  schema: claimSlaBreachedData,
});
