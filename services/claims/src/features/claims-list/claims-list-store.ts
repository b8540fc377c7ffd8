import type { Knex } from '@platform/db';
import type { ClaimStage, LossType } from '../../shared/claim-vocabulary';
import type { ClaimCursor } from './claim-cursor';
import type { ClaimsListQuery, ClaimSummary } from './claims-list-schemas';

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

export type ClaimsListFilters = Omit<ClaimsListQuery, 'limit' | 'cursor'>;

export function claimsListStore(db: Knex) {
  return {
    /** Up to `limit` claims after `after`, newest first by (created_at, id), each with its own cursor position. */
    async page(filters: ClaimsListFilters, after: ClaimCursor | undefined, limit: number): Promise<{ summary: ClaimSummary; position: ClaimCursor }[]> {
      let select = db('claims').select(
        'id', 'claim_number', 'stage', 'policy_number', 'loss_type', 'claimant_name', 'queue', 'created_at', 'updated_at', 'next_update_due',
        db.raw(`to_char(loss_date, 'YYYY-MM-DD') AS loss_date`),
        db.raw(`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_created_at`),
        db.raw(`${OPEN_ESCALATION} AS has_open_escalation`),
      );
      if (filters.stage) select = select.whereIn('stage', filters.stage);
      if (filters.queue !== undefined) select = select.where('queue', filters.queue);
      if (filters.escalation === 'open') select = select.whereRaw(OPEN_ESCALATION);
      if (filters.overdue) select = select.where('next_update_due', '<', db.raw('now()')).whereNot('stage', 'closed');
      if (filters.created_from) select = select.where('created_at', '>=', filters.created_from);
      if (filters.created_to) select = select.where('created_at', '<', filters.created_to);
      if (after) select = select.whereRaw('(created_at, id) < (?::timestamptz, ?::uuid)', [after.created_at, after.id]);
      const rows = (await select.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit)) as SummaryRow[];
      return rows.map((row) => ({
        summary: {
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
        },
        position: { created_at: row.cursor_created_at, id: row.id },
      }));
    },
  };
}
