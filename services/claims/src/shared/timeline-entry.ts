/** One entry of a claim's internal timeline (the append-only claim_audit table). */
export const timelineEntrySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['audit_id', 'action', 'actor', 'reason', 'data', 'occurred_at'],
  properties: {
    audit_id: { type: 'string', format: 'uuid' },
    action: { type: 'string' },
    actor: { type: 'string' },
    reason: { type: ['string', 'null'] },
    data: { type: 'object' },
    occurred_at: { type: 'string', format: 'date-time' },
  },
} as const;
