import { newestFirstPage, pageQuerySchema, type FromSchema } from '@platform/http';

/** What of a claim's personal data was read. */
export const ACCESS_KINDS = ['claim_file', 'attachment', 'adjuster_kit', 'export'] as const;
export type AccessKind = (typeof ACCESS_KINDS)[number];

/** The longest `Access-Purpose` accepted, in characters. */
export const ACCESS_PURPOSE_MAX_LENGTH = 200;

export const accessLogEntrySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['access_id', 'claim_id', 'actor', 'kind', 'purpose', 'sensitive', 'accessed_at'],
  properties: {
    access_id: { type: 'string', format: 'uuid' },
    claim_id: { type: 'string', format: 'uuid' },
    actor: { type: 'string', description: 'The reader’s `sub`' },
    kind: { enum: ACCESS_KINDS },
    purpose: { type: ['string', 'null'], maxLength: ACCESS_PURPOSE_MAX_LENGTH, description: 'The Access-Purpose the reader gave, if any' },
    sensitive: { type: 'boolean', description: 'The claim involved an injury or a fraud gate when it was read' },
    accessed_at: { type: 'string', format: 'date-time' },
  },
} as const;
export type AccessLogEntry = FromSchema<typeof accessLogEntrySchema>;

export const accessLogQuerySchema = pageQuerySchema;
export type AccessLogQuery = FromSchema<typeof accessLogQuerySchema>;

export const accessLogPageSchema = newestFirstPage(accessLogEntrySchema);

/** Whether reading a claim's personal data needs a purpose: flags only, nothing personal. */
export const claimSensitivitySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['claim_id', 'claim_number', 'sensitive', 'purpose_required'],
  properties: {
    claim_id: { type: 'string', format: 'uuid' },
    claim_number: { type: 'string' },
    sensitive: { type: 'boolean', description: 'The claim involves an injury, or a triage run raised the fraud indicator gate' },
    purpose_required: {
      type: 'boolean',
      description:
        'A read of the claim’s personal data (the claim file, an attachment’s bytes, an adjuster kit, an export holding it) ' +
        'needs an `Access-Purpose` header, else it is 428: the claim is sensitive and its claimant not erased',
    },
  },
} as const;
