import type { Knex } from '@platform/db';
import type { Escalation, EscalationDecisionRequest } from './escalation-schemas';
import type { EscalationGate, Queue } from '../triage-policy';

type EscalationDecisionKind = EscalationDecisionRequest['decision'];

/** An escalations row: the id column is `id`, the times are Dates. */
interface EscalationRow extends Omit<Escalation, 'escalation_id' | 'decided_at' | 'created_at'> {
  id: string;
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

export function escalationStore(db: Knex) {
  return {
    async insert(escalation: {
      id: string;
      claim_id: string;
      triage_id: string;
      gates: EscalationGate[];
      proposed_queue: Queue;
    }): Promise<Escalation> {
      const [row] = await db('escalations')
        .insert({ ...escalation, status: 'open', gates: JSON.stringify(escalation.gates) })
        .returning('*');
      return toEscalation(row);
    },

    async findOpen(claimId: string): Promise<Escalation | undefined> {
      const row = await db('escalations').where({ claim_id: claimId, status: 'open' }).first();
      return row ? toEscalation(row) : undefined;
    },

    /** One of the claim's escalations, locked until the transaction ends. */
    async lock(claimId: string, escalationId: string): Promise<Escalation | undefined> {
      const row = await db('escalations').where({ id: escalationId, claim_id: claimId }).forUpdate().first();
      return row ? toEscalation(row) : undefined;
    },

    async recordDecision(
      escalationId: string,
      decision: { decision: EscalationDecisionKind; queue: Queue; rationale: string; decided_by: string },
    ): Promise<Escalation> {
      const [row] = await db('escalations')
        .where({ id: escalationId, status: 'open' })
        .update({ ...decision, status: 'decided', decided_at: db.fn.now() })
        .returning('*');
      return toEscalation(row);
    },

    /** The claim's escalations, newest first. */
    async listOfClaim(claimId: string): Promise<Escalation[]> {
      const rows = await db('escalations')
        .where({ claim_id: claimId })
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ]);
      return (rows as EscalationRow[]).map(toEscalation);
    },
  };
}
