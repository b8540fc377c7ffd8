import { statusUpdateSchema } from '../status-updates/status-updates-schemas';

/** JSON Schemas (2020-12) of the claim file's parts; the claim itself is in `shared/claim-schemas.ts` (the claim store's type comes from it). */
const timestamp = { type: 'string', format: 'date-time' } as const;

/** A stored status update as the claim file lists it: its id and provenance, then the thirteen fields. */
export const storedStatusUpdateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['update_id', 'created_at', 'created_by', ...statusUpdateSchema.required],
  properties: {
    update_id: { type: 'string', format: 'uuid' },
    created_at: timestamp,
    created_by: { type: 'string' },
    ...statusUpdateSchema.properties,
  },
} as const;

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
