import type { FromSchema } from '@platform/http';
import { DEADLINES } from '../../shared/claim-deadlines';
import { CLAIM_STAGES, LOSS_TYPES } from '../../shared/claim-vocabulary';
import { SUBJECT_PATTERN } from '../assignment';

/** The columns the claims list can be sorted by; `-` descending. */
export const SORT_COLUMNS = ['created_at', 'estimated_amount', 'severity', 'loss_type'] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];
export const CLAIM_SORTS = SORT_COLUMNS.flatMap((column) => [column, `-${column}`] as const);
export type ClaimSort = (typeof CLAIM_SORTS)[number];
export const DEFAULT_SORT: ClaimSort = '-created_at';

/** Query of GET /api/claims/claims; every other parameter is a 400. */
export const claimsListQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    stage: { type: 'array', items: { enum: [...CLAIM_STAGES] }, minItems: 1, maxItems: CLAIM_STAGES.length, description: 'Repeatable' },
    queue: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,64}$' },
    escalation: { const: 'open', description: 'Only claims with an open escalation' },
    overdue: {
      type: 'boolean',
      const: true,
      description: 'Only open claims past a deadline still unmet: any of them, or the one `deadline` names',
    },
    deadline: {
      enum: [...DEADLINES],
      description:
        'With overdue=true: only this deadline (acknowledgement reaching the claimant, first contact by an adjuster, promised next update)',
    },
    delivery_failed: { type: 'boolean', const: true, description: 'Only claims with a message whose delivery failed for good' },
    activity_overdue: {
      type: 'boolean',
      const: true,
      description: 'Only claims with an open diary activity due before today (UTC), whoever it is assigned to',
    },
    created_from: { type: 'string', format: 'date-time', description: 'Inclusive (created_at >= created_from)' },
    created_to: { type: 'string', format: 'date-time', description: 'Exclusive (created_at < created_to)' },
    q: {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      description:
        'Search: claim number, policy number, claimant name (typos and partial words), email or phone (at least 3 characters); ranked best match first',
    },
    assignee: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      pattern: SUBJECT_PATTERN,
      description: '`me` (the caller) or a JWT `sub`: only claims assigned to them',
    },
    unassigned: { type: 'boolean', const: true, description: 'Only claims nobody is assigned to' },
    sort: {
      enum: [...CLAIM_SORTS],
      default: '-created_at',
      description:
        'Order of the list: a column, descending with a leading `-`; ties newest first (oldest first when ascending). `estimated_amount` ' +
        'compares the amount whatever its currency; `severity` is the latest triage score. Claims without the value come last descending, ' +
        'first ascending. Not with `q` (a search is ranked best match first): 422',
    },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
    cursor: { type: 'string', minLength: 1, maxLength: 200, description: 'next_cursor of the previous page' },
  },
} as const;

export type ClaimsListQuery = FromSchema<typeof claimsListQuerySchema>;

export const claimSummarySchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'claim_id',
    'claim_number',
    'stage',
    'policy_number',
    'loss_type',
    'loss_date',
    'claimant_name',
    'queue',
    'assignee',
    'escalation',
    'estimated_amount',
    'severity',
    'created_at',
    'updated_at',
    'next_update_due',
  ],
  properties: {
    claim_id: { type: 'string', format: 'uuid' },
    claim_number: { type: 'string' },
    stage: { enum: [...CLAIM_STAGES] },
    policy_number: { type: 'string' },
    loss_type: { enum: [...LOSS_TYPES] },
    loss_date: { type: 'string', format: 'date' },
    claimant_name: { type: 'string' },
    queue: { type: ['string', 'null'] },
    assignee: { type: ['string', 'null'], description: 'The JWT `sub` working the claim, or null' },
    escalation: { enum: ['open', null], description: '"open" while an escalation awaits a human decision' },
    estimated_amount: {
      oneOf: [
        {
          type: 'object',
          additionalProperties: false,
          required: ['amount', 'currency'],
          properties: { amount: { type: 'string' }, currency: { type: 'string' } },
        },
        { type: 'null' },
      ],
      description: 'The estimate given at first notice, or null',
    },
    severity: { type: ['integer', 'null'], minimum: 0, maximum: 100, description: 'The latest triage score (0–100), null before triage' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    next_update_due: { type: ['string', 'null'], format: 'date-time' },
  },
} as const;

export const claimsListResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['items', 'next_cursor'],
  properties: {
    items: { type: 'array', items: claimSummarySchema },
    next_cursor: { type: ['string', 'null'] },
  },
} as const;

export type ClaimSummary = FromSchema<typeof claimSummarySchema>;
export type ClaimsListPage = FromSchema<typeof claimsListResponseSchema>;
