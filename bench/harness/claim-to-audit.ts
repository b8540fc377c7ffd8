import type { Stack } from '@platform/testing';
import { percentile, round, sleep } from './stats';
import { pgClient } from './workspace-modules';

export async function query<T = any>(databaseUrl: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = pgClient(databaseUrl);
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/** The claims database's clock: the start of a window whose claims claimToAudit measures. */
export async function claimsClock(stack: Stack): Promise<string> {
  const [{ t0 }] = await query<{ t0: string }>(stack.claimsDatabaseUrl, 'SELECT clock_timestamp() AS t0');
  return t0;
}

/**
 * Waits until the evidence consumer has recorded every event the claims outbox holds (its inbox counts
 * them). Earlier load leaves a backlog — the intake series' bare-SQL replays write outbox rows too, by
 * the thousand — and a window measured while it drains measures the backlog, not the pipeline.
 */
export async function eventsDrained(stack: Stack, timeoutMs = 300000): Promise<{ backlog: number; waited_s: number }> {
  const started = Date.now();
  let backlog: number | undefined;
  for (;;) {
    const [{ events }] = await query<{ events: string }>(
      stack.claimsDatabaseUrl,
      'SELECT count(*) AS events FROM outbox WHERE exchange = $1',
      [stack.env.CLAIMS_EXCHANGE],
    );
    const [{ recorded }] = await query<{ recorded: string }>(
      stack.evidenceDatabaseUrl,
      "SELECT count(*) AS recorded FROM inbox WHERE consumer = 'evidence.claim-events'",
    );
    const behind = Number(events) - Number(recorded);
    backlog ??= behind;
    if (behind <= 0) return { backlog, waited_s: round((Date.now() - started) / 1000, 1) };
    if (Date.now() - started > timeoutMs) throw new Error(`${behind} claim events still not in the audit log after ${timeoutMs / 1000} s`);
    await sleep(250);
  }
}

/**
 * From a claim committed at the claims service to its `claim.created` record in the evidence audit log,
 * for every claim created since `since` (claimsClock), read from both databases. The start is the claim's
 * outbox row (`created_at`, clock_timestamp() at its insert: the intake transaction's last write, just
 * before COMMIT, so the figure errs on the slow side by the commit itself); the end is the audit record's
 * `recorded_at`. The outbox's `published_at` (set once the broker confirmed) splits it into relay and
 * consumer. The claim's `created_at` is not the start: it is the intake's clock before its transaction
 * began, before the wait for the claim-number counter that concurrent intakes queue on, so from it the
 * figure would count the intake's own latency (`received_to_written_*` shows that part). Waits up to
 * 120 s for the last records.
 */
export async function claimToAudit(stack: Stack, since: string) {
  const ids = (
    await query<{ id: string }>(stack.claimsDatabaseUrl, 'SELECT id::text AS id FROM claims WHERE created_at >= $1', [since])
  ).map((row) => row.id);
  const deadline = Date.now() + 120000;
  let recorded = new Map<string, number>();
  for (;;) {
    const rows = await query<{ entity_id: string; recorded_at: string }>(
      stack.evidenceDatabaseUrl,
      `SELECT entity_id, recorded_at FROM audit_log WHERE source = 'claims' AND action = 'claim.created' AND entity_id = ANY($1::text[])`,
      [ids],
    );
    recorded = new Map(rows.map((row) => [row.entity_id, Date.parse(row.recorded_at)]));
    if (recorded.size >= ids.length) break;
    if (Date.now() > deadline) throw new Error(`only ${recorded.size} of ${ids.length} claims reached the audit log within 120 s`);
    await sleep(250);
  }
  // Read after the audit records arrived: by then the relay has marked every row published.
  const outbox = await query<{ claim_id: string; received_ms: string; written_ms: string; published_ms: string }>(
    stack.claimsDatabaseUrl,
    `SELECT c.id::text AS claim_id, (extract(epoch FROM c.created_at) * 1000)::float8 AS received_ms,
            (extract(epoch FROM o.created_at) * 1000)::float8 AS written_ms, (extract(epoch FROM o.published_at) * 1000)::float8 AS published_ms
       FROM claims c JOIN outbox o ON o.routing_key = 'claim.created' AND o.payload->>'subject' = c.id::text
      WHERE c.id = ANY($1::uuid[]) AND o.published_at IS NOT NULL`,
    [ids],
  );
  const rows = outbox.map((row) => ({
    received: Number(row.received_ms),
    written: Number(row.written_ms),
    published: Number(row.published_ms),
    recorded: recorded.get(row.claim_id)!,
  }));
  const ms = (values: number[]) => ({ p50: round(percentile(values, 50), 1), p99: round(percentile(values, 99), 1) });
  const endToEnd = rows.map((row) => row.recorded - row.written);
  const relayed = ms(rows.map((row) => row.published - row.written));
  const consumed = ms(rows.map((row) => row.recorded - row.published));
  const received = ms(rows.map((row) => row.written - row.received));
  return {
    p50_ms: round(percentile(endToEnd, 50), 1),
    p99_ms: round(percentile(endToEnd, 99), 1),
    max_ms: round(percentile(endToEnd, 100), 1),
    written_to_published_p50_ms: relayed.p50,
    written_to_published_p99_ms: relayed.p99,
    published_to_audit_p50_ms: consumed.p50,
    published_to_audit_p99_ms: consumed.p99,
    received_to_written_p50_ms: received.p50,
    received_to_written_p99_ms: received.p99,
    received_to_audit_p99_ms: ms(rows.map((row) => row.recorded - row.received)).p99,
    claims_created: ids.length,
    claims_measured: rows.length,
  };
}
