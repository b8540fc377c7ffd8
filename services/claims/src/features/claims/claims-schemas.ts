import { statusUpdateSchema } from '../../shared/status-update';

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
