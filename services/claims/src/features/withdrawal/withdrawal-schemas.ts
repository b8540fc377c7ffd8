import type { FromSchema } from '@platform/http';
import { statusUpdateSchema } from '../../shared/status-update';

/** Answer of POST /api/claims/public/claims/{id}/withdraw: the claim is closed, and the update that says so. */
export const withdrawalSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['claim_id', 'claim_number', 'stage', 'closing_reason', 'withdrawn_at', 'status'],
  properties: {
    claim_id: { type: 'string', format: 'uuid' },
    claim_number: { type: 'string' },
    stage: { const: 'closed' },
    closing_reason: { const: 'withdrawn' },
    withdrawn_at: { type: 'string', format: 'date-time' },
    status: statusUpdateSchema,
  },
} as const;

export type Withdrawal = FromSchema<typeof withdrawalSchema>;
