import type { FromSchema } from '@platform/http';
import { eventKind, eventSchemaId } from '@platform/messaging';
import { claimEventProperties } from '../../shared/claim-change';

export const ASSIGNEE_CHANGES = ['assigned', 'reassigned', 'released'] as const;

/** `data` of `claim.assignee_changed`: one event for taking, reassigning and releasing a claim. */
export const claimAssigneeChangedData = {
  $id: eventSchemaId('claim.assignee_changed', 1),
  type: 'object',
  additionalProperties: false,
  required: ['claim_id', 'actor', 'change', 'previous_assignee', 'assignee'],
  properties: {
    ...claimEventProperties,
    change: {
      enum: [...ASSIGNEE_CHANGES],
      description: '`assigned`: from nobody; `reassigned`: from one person to another; `released`: to nobody',
    },
    previous_assignee: { type: ['string', 'null'], description: 'The JWT `sub` of the adjuster before, or null' },
    assignee: { type: ['string', 'null'], description: 'The JWT `sub` of the adjuster now, or null' },
  },
} as const;

export const claimAssigneeChanged = eventKind<FromSchema<typeof claimAssigneeChangedData>>({
  type: 'claim.assignee_changed',
  summary: 'A claim was taken, reassigned or released',
  schema: claimAssigneeChangedData,
});
