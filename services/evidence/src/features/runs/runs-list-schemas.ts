import type { FromSchema } from '@platform/http';
import { KEY_PATTERN } from '../controls';
import { NO_NUL, YEAR_1000_TO_9999 } from '../../shared/schema-patterns';
import { RUN_STATUSES, runStateSchema } from './runs-schemas';

const date = { type: 'string', format: 'date', pattern: YEAR_1000_TO_9999 } as const;

/** Query of GET /api/evidence/runs; every other parameter is a 400. */
export const listRunsQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    status: {
      type: 'array',
      items: { enum: [...RUN_STATUSES] },
      minItems: 1,
      maxItems: RUN_STATUSES.length,
      description: 'Repeatable: runs in any of these states',
    },
    control: {
      type: 'string',
      pattern: KEY_PATTERN,
      description: 'A control_id or a control key (any letter case): runs of any version of that control',
    },
    period_from: { ...date, description: 'Runs whose period overlaps [period_from, period_to): period_end >= period_from' },
    period_to: { ...date, description: 'Exclusive: period_start < period_to' },
    created_by: { type: 'string', minLength: 1, maxLength: 300, pattern: NO_NUL, description: 'The `sub` that opened the run' },
    awaiting: {
      const: 'me',
      description:
        'The approval queue: runs in review that the caller (holding evidence:approve) may decide under segregation of duties — never one they created, submitted or added evidence to',
    },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
    cursor: { type: 'string', minLength: 1, maxLength: 200, description: 'next_cursor of the previous page (opaque)' },
  },
} as const;

export type ListRunsQuery = FromSchema<typeof listRunsQuerySchema, { keepDefaultedPropertiesOptional: true }>;

export const runListResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['items', 'next_cursor'],
  properties: { items: { type: 'array', items: runStateSchema }, next_cursor: { type: ['string', 'null'] } },
};
