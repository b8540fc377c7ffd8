import type { FromSchema } from '@platform/http';
import { eventKind, eventSchemaId } from '@platform/messaging';
import { claimEventProperties } from '../../shared/claim-change';
import { DEADLINES } from '../../shared/claim-deadlines';
import { CLAIM_STAGES } from '../../shared/claim-vocabulary';

/** `data` of `claim.sla_breached`. */
export const claimSlaBreachedData = {
  $id: eventSchemaId('claim.sla_breached', 1),
  type: 'object',
  additionalProperties: false,
  required: ['claim_id', 'actor', 'deadline', 'due_at', 'stage'],
  properties: {
    ...claimEventProperties,
    deadline: { enum: [...DEADLINES], description: 'Which deadline passed unmet: the acknowledgement reaching the claimant, the first contact by an adjuster, or the promised next update' },
    due_at: { type: 'string', format: 'date-time', description: 'When it was due' },
    stage: { enum: [...CLAIM_STAGES] },
  },
} as const;

export const claimSlaBreached = eventKind<FromSchema<typeof claimSlaBreachedData>>({
  type: 'claim.sla_breached',
  summary: 'An open claim passed one of its deadlines unmet (announced once per deadline and due moment)',
  schema: claimSlaBreachedData,
});
