import type { FromSchema } from '@platform/http';
import { eventKind, eventSchemaId } from '@platform/messaging';
import { claimEventProperties } from '../../shared/claim-change';
import { ACCESS_KINDS } from './access-log-schemas';

/**
 * `data` of `claim.personal_data_accessed`: who read what kind of a claim's personal data, and whether they
 * gave a purpose — never the purpose itself, which is free text a person typed and may name someone.
 */
export const claimPersonalDataAccessedData = {
  $id: eventSchemaId('claim.personal_data_accessed', 1),
  type: 'object',
  additionalProperties: false,
  required: ['claim_id', 'actor', 'access_id', 'kind', 'purpose_given', 'sensitive'],
  properties: {
    ...claimEventProperties,
    access_id: { type: 'string', format: 'uuid', description: 'The row of the claim’s access log' },
    kind: { enum: ACCESS_KINDS },
    purpose_given: { type: 'boolean', description: 'Whether the reader sent an Access-Purpose (its text stays in the claims service)' },
    sensitive: { type: 'boolean', description: 'The claim involved an injury or a fraud gate when it was read' },
  },
} as const;

export const claimPersonalDataAccessed = eventKind<FromSchema<typeof claimPersonalDataAccessedData>>({
  type: 'claim.personal_data_accessed',
  summary:
    "Someone on staff read a claim's personal data (the claim file, an attachment, an adjuster kit or an export): who, what kind, whether a purpose was given",
  schema: claimPersonalDataAccessedData,
});
