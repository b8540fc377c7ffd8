import { createDatabase, type Knex } from '@platform/db';

/** Runs `work` on a one-connection pool to `url` (a stack's database, as superuser), then closes it. */
export async function withDatabase<T>(url: string, work: (db: Knex) => Promise<T>): Promise<T> {
  const db = createDatabase({ url, poolMax: 1 });
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
}

export async function queryRows<T = Record<string, any>>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  return withDatabase(url, async (db) => (await db.raw(sql.replace(/\$\d+/g, '?'), params as any[])).rows as T[]);
}

export async function countRows(url: string, table: string): Promise<number> {
  const [row] = await queryRows<{ n: string }>(url, `SELECT count(*) AS n FROM ${table}`);
  return Number(row.n);
}

/** How often each claim's event (by default `claim.created`) is in the evidence audit log, by claim id. */
export async function auditedClaimEvents(evidenceDatabaseUrl: string, action = 'claim.created'): Promise<Map<string, number>> {
  const rows = await queryRows<{ entity_id: string; n: string }>(
    evidenceDatabaseUrl,
    `SELECT entity_id, count(*) AS n FROM audit_log WHERE source = 'claims' AND action = $1 GROUP BY entity_id`,
    [action],
  );
  return new Map(rows.map((row) => [row.entity_id, Number(row.n)]));
}

/** Records lost and duplicates applied: claims missing from the audit log, and extra copies of those present. */
export function lossAndDuplicates(claimIds: Iterable<string>, audited: Map<string, number>): { lost: string[]; duplicated: string[] } {
  const lost: string[] = [];
  const duplicated: string[] = [];
  for (const id of claimIds) {
    const n = audited.get(id) ?? 0;
    if (n === 0) lost.push(id);
    if (n > 1) duplicated.push(id);
  }
  return { lost, duplicated };
}
