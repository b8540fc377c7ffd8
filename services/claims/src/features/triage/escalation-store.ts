import type { Knex } from '@platform/db';
import type { EscalationGate } from './evaluate-policy';
import type { Queue } from './triage-policy';

export type EscalationDecisionKind = 'accept' | 'override';

/** An escalation as the API shows it (claim detail, adjuster kit, decision response). */
export interface Escalation {
  escalation_id: string;
  claim_id: string;
  triage_id: string;
  status: 'open' | 'decided';
  gates: EscalationGate[];
  proposed_queue: Queue;
  decision: EscalationDecisionKind | null;
  queue: Queue | null;
  rationale: string | null;
  decided_by: string | null;
  decided_at: string | null;
  created_at: string;
}

interface EscalationRow {
  id: string;
  claim_id: string;
  triage_id: string;
  status: 'open' | 'decided';
  gates: EscalationGate[];
  proposed_queue: Queue;
  decision: EscalationDecisionKind | null;
  queue: Queue | null;
  rationale: string | null;
  decided_by: string | null;
  decided_at: Date | null;
  created_at: Date;
}

function toEscalation(row: EscalationRow): Escalation {
  return {
    escalation_id: row.id,
    claim_id: row.claim_id,
    triage_id: row.triage_id,
    status: row.status,
    gates: row.gates,
    proposed_queue: row.proposed_queue,
    decision: row.decision,
    queue: row.queue,
    rationale: row.rationale,
    decided_by: row.decided_by,
    decided_at: row.decided_at ? new Date(row.decided_at).toISOString() : null,
    created_at: new Date(row.created_at).toISOString(),
  };
}

export async function insertEscalation(
  db: Knex,
  escalation: { id: string; claim_id: string; triage_id: string; gates: EscalationGate[]; proposed_queue: Queue },
): Promise<Escalation> {
  const [row] = await db('escalations')
    .insert({ ...escalation, status: 'open', gates: JSON.stringify(escalation.gates) })
    .returning('*');
  return toEscalation(row);
}

export async function findOpenEscalation(db: Knex, claimId: string): Promise<Escalation | undefined> {
  const row = await db('escalations').where({ claim_id: claimId, status: 'open' }).first();
  return row ? toEscalation(row) : undefined;
}

/** One of the claim's escalations, locked until the transaction ends. */
export async function lockEscalation(db: Knex, claimId: string, escalationId: string): Promise<Escalation | undefined> {
  const row = await db('escalations').where({ id: escalationId, claim_id: claimId }).forUpdate().first();
  return row ? toEscalation(row) : undefined;
}

export async function recordDecision(
  db: Knex,
  escalationId: string,
  decision: { decision: EscalationDecisionKind; queue: Queue; rationale: string; decided_by: string },
): Promise<Escalation> {
  const [row] = await db('escalations')
    .where({ id: escalationId, status: 'open' })
    .update({ ...decision, status: 'decided', decided_at: db.fn.now() })
    .returning('*');
  return toEscalation(row);
}

/** The claim's escalations, newest first. */
export async function listEscalations(db: Knex, claimId: string): Promise<Escalation[]> {
  const rows = await db('escalations').where({ claim_id: claimId }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
  return (rows as EscalationRow[]).map(toEscalation);
}
