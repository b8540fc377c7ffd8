import type { Knex } from '@platform/db';
import { problems } from '@platform/http';
import { CLAIM_STAGES, LOSS_TYPES, type ClaimStage, type LossType } from '../../shared/claim-vocabulary';
import { decodeCursor, encodeCursor } from './claim-cursor';

/** Query of GET /api/claims/claims; every other parameter is a 400. */
export const claimsListQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    stage: { type: 'array', items: { enum: [...CLAIM_STAGES] }, minItems: 1, maxItems: CLAIM_STAGES.length, description: 'Repeatable' },
    queue: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,64}$' },
    escalation: { const: 'open', description: 'Only claims with an open escalation' },
    overdue: { type: 'boolean', const: true, description: 'Only claims whose promised next update has passed (not closed)' },
    created_from: { type: 'string', format: 'date-time', description: 'Inclusive (created_at >= created_from)' },
    created_to: { type: 'string', format: 'date-time', description: 'Exclusive (created_at < created_to)' },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
    cursor: { type: 'string', minLength: 1, maxLength: 200, description: 'next_cursor of the previous page' },
  },
} as const;

export interface ClaimsListQuery {
  stage?: ClaimStage[];
  queue?: string;
  escalation?: 'open';
  overdue?: true;
  created_from?: string;
  created_to?: string;
  limit?: number;
  cursor?: string;
}

export const claimSummarySchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'claim_id', 'claim_number', 'stage', 'policy_number', 'loss_type', 'loss_date', 'claimant_name', 'queue', 'escalation',
    'created_at', 'updated_at', 'next_update_due',
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
    escalation: { enum: ['open', null], description: '"open" while an escalation awaits a human decision' },
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

export interface ClaimSummary {
  claim_id: string;
  claim_number: string;
  stage: ClaimStage;
  policy_number: string;
  loss_type: LossType;
  loss_date: string;
  claimant_name: string;
  queue: string | null;
  escalation: 'open' | null;
  created_at: string;
  updated_at: string;
  next_update_due: string | null;
}

interface SummaryRow {
  id: string;
  claim_number: string;
  stage: ClaimStage;
  policy_number: string;
  loss_type: LossType;
  loss_date: string;
  claimant_name: string;
  queue: string | null;
  has_open_escalation: boolean;
  created_at: Date;
  cursor_created_at: string;
  updated_at: Date;
  next_update_due: Date | null;
}

const OPEN_ESCALATION = `EXISTS (SELECT 1 FROM escalations e WHERE e.claim_id = claims.id AND e.status = 'open')`;

/** One page of claims, newest first, by keyset on (created_at, id). */
export async function listClaims(db: Knex, query: ClaimsListQuery): Promise<{ items: ClaimSummary[]; next_cursor: string | null }> {
  if (query.created_from && query.created_to && Date.parse(query.created_from) >= Date.parse(query.created_to)) {
    throw problems.unprocessable('created_from must be before created_to');
  }
  const limit = query.limit ?? 25;
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  let select = db('claims').select(
    'id', 'claim_number', 'stage', 'policy_number', 'loss_type', 'claimant_name', 'queue', 'created_at', 'updated_at', 'next_update_due',
    db.raw(`to_char(loss_date, 'YYYY-MM-DD') AS loss_date`),
    db.raw(`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_created_at`),
    db.raw(`${OPEN_ESCALATION} AS has_open_escalation`),
  );
  if (query.stage) select = select.whereIn('stage', query.stage);
  if (query.queue !== undefined) select = select.where('queue', query.queue);
  if (query.escalation === 'open') select = select.whereRaw(OPEN_ESCALATION);
  if (query.overdue) select = select.where('next_update_due', '<', db.raw('now()')).whereNot('stage', 'closed');
  if (query.created_from) select = select.where('created_at', '>=', query.created_from);
  if (query.created_to) select = select.where('created_at', '<', query.created_to);
  if (after) select = select.whereRaw('(created_at, id) < (?::timestamptz, ?::uuid)', [after.created_at, after.id]);
  const rows = (await select.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit + 1)) as SummaryRow[];
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map((row) => ({
      claim_id: row.id,
      claim_number: row.claim_number,
      stage: row.stage,
      policy_number: row.policy_number,
      loss_type: row.loss_type,
      loss_date: row.loss_date,
      claimant_name: row.claimant_name,
      queue: row.queue,
      escalation: row.has_open_escalation ? 'open' : null,
      created_at: new Date(row.created_at).toISOString(),
      updated_at: new Date(row.updated_at).toISOString(),
      next_update_due: row.next_update_due === null ? null : new Date(row.next_update_due).toISOString(),
    })),
    next_cursor: rows.length > limit && last ? encodeCursor({ created_at: last.cursor_created_at, id: last.id }) : null,
  };
}
