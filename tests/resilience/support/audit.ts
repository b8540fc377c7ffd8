import { auditedClaimEvents, lossAndDuplicates, queryRows } from './database';
import { sleep } from './stack';

/**
 * Waits (bounded) until every claim's `claim.created` is in the evidence audit log, then waits a little
 * longer so late redeliveries would show, and counts what is missing and what is there more than once.
 */
export async function settleAuditLog(
  evidenceDatabaseUrl: string,
  claimIds: string[],
  timeoutMs = 120000,
): Promise<{ lost: string[]; duplicated: string[]; waitedMs: number }> {
  const started = Date.now();
  let result = lossAndDuplicates(claimIds, await auditedClaimEvents(evidenceDatabaseUrl));
  while (result.lost.length > 0 && Date.now() - started < timeoutMs) {
    await sleep(1000);
    result = lossAndDuplicates(claimIds, await auditedClaimEvents(evidenceDatabaseUrl));
  }
  const waitedMs = Date.now() - started;
  await sleep(3000);
  result = lossAndDuplicates(claimIds, await auditedClaimEvents(evidenceDatabaseUrl));
  return { ...result, waitedMs };
}

/** Outbox rows the claims service has not yet had confirmed by the broker. */
export async function pendingOutbox(claimsDatabaseUrl: string): Promise<number> {
  const [row] = await queryRows<{ n: string }>(claimsDatabaseUrl, 'SELECT count(*) AS n FROM outbox WHERE published_at IS NULL');
  return Number(row.n);
}

/** The audit records of one claim through the API (`audit:read`), following the cursor. */
export async function auditRecordsViaApi(
  baseUrl: string,
  authorization: string,
  claimId: string,
): Promise<{ status: number; items: any[] }> {
  const items: any[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const query = new URLSearchParams({ source: 'claims', entity_id: claimId, ...(cursor ? { cursor } : {}) });
    const response = await fetch(`${baseUrl}/api/evidence/audit/records?${query}`, { headers: { authorization } });
    if (response.status !== 200) return { status: response.status, items };
    const body = (await response.json()) as { items: any[]; next_cursor: string | null };
    items.push(...body.items);
    if (!body.next_cursor) break;
    cursor = body.next_cursor;
  }
  return { status: 200, items };
}
