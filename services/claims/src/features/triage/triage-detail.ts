import type { Knex } from '@platform/db';
import { escalationSchema, escalationStore, type Escalation } from '../escalations';
import { triageResultSchema } from './triage-schemas';
import type { TriageResult } from './triage-schemas';
import { triageStore } from './triage-store';

/** What the internal claim detail (GET /api/claims/claims/{id}) shows of triage: spread into the claim file. */
export interface ClaimTriageDetail {
  /** The latest triage run, or null before the first. */
  triage: TriageResult | null;
  /** The latest escalation (open or decided), or null when no run raised a gate. */
  escalation: Escalation | null;
}

/** JSON Schema properties of ClaimTriageDetail, to spread into the claim detail's response schema. */
export const claimTriageDetailProperties = {
  triage: { oneOf: [{ type: 'null' }, triageResultSchema] },
  escalation: { oneOf: [{ type: 'null' }, escalationSchema] },
} as const;

export async function claimTriageDetail(db: Knex, claimId: string): Promise<ClaimTriageDetail> {
  const [triage, escalations] = [await triageStore(db).latestRun(claimId), await escalationStore(db).listOfClaim(claimId)];
  return { triage, escalation: escalations[0] ?? null };
}
