import type { FromSchema } from '@platform/http';
import { eventKind, eventSchemaId } from '@platform/messaging';
import { claimEventProperties } from '../../shared/claim-change';

/** `data` of `claim.activity_changed`: the activity's id, what happened and to whom it is assigned; never its subject. */
export const claimActivityChangedData = {
  $id: eventSchemaId('claim.activity_changed', 1),
  type: 'object',
  additionalProperties: false,
  required: ['claim_id', 'actor', 'activity_id', 'change', 'assignee', 'due_on'],
  properties: {
    ...claimEventProperties,
    activity_id: { type: 'string', format: 'uuid' },
    change: { enum: ['created', 'completed', 'reassigned'] },
    assignee: { type: 'string' },
    due_on: { type: 'string', format: 'date' },
  },
} as const;

export const claimActivityChanged = eventKind<FromSchema<typeof claimActivityChangedData>>({
  type: 'claim.activity_changed',
  summary: "An activity in a claim's diary was created, completed or reassigned",
  schema: claimActivityChangedData,
});
