import { intakeRequest } from '../harness/claimant';
import type { BenchContext, Scenario } from '../harness/context';
import { percentile, round, sleep } from '../harness/stats';
import { pgClient } from '../harness/workspace-modules';

async function query<T = any>(databaseUrl: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = pgClient(databaseUrl);
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * events.end_to_end_p50_ms / _p99_ms: from a claim committed at the claims service to its
 * `claim.created` record in the evidence audit log, under intake load (open loop at half the intake
 * saturation measured before). Taken for every claim of the load window from both databases: the
 * claim's `created_at` (the insert, inside the intake transaction, so slightly before its commit:
 * the figure errs on the slow side) and the audit record's `recorded_at`. Outbox → relay (LISTEN/NOTIFY)
 * → RabbitMQ → consumer → audit append all sit in between.
 */
export const eventsScenario: Scenario = {
  name: 'events',
  keys: ['end_to_end_p50_ms', 'end_to_end_p99_ms'],
  async run(context: BenchContext) {
    const { params, load, stack } = context;
    const rate = Math.max(10, Math.floor((context.shared.intakeRps ?? 100) / 2));
    const intakeLoad = (durationSec: number) =>
      load.run({
        kind: 'openloop',
        url: stack.claims.url,
        rate,
        connections: params.intakeConcurrency * 2,
        durationSec,
        requests: [intakeRequest()],
      });
    await intakeLoad(params.warmupSec);
    const [{ t0 }] = await query<{ t0: string }>(stack.claimsDatabaseUrl, 'SELECT clock_timestamp() AS t0');
    const result = await intakeLoad(params.eventsSec);
    if (result.non2xx + result.errors > 0) throw new Error(`intake under event load: ${result.non2xx + result.errors} requests failed`);
    const claims = await query<{ id: string; created_ms: string }>(
      stack.claimsDatabaseUrl,
      `SELECT id::text AS id, (extract(epoch FROM created_at) * 1000)::float8 AS created_ms FROM claims WHERE created_at >= $1`,
      [t0],
    );
    const created = new Map(claims.map((claim) => [claim.id, Number(claim.created_ms)]));
    const deadline = Date.now() + 120000;
    let recorded = new Map<string, number>();
    for (;;) {
      const rows = await query<{ entity_id: string; recorded_at: string }>(
        stack.evidenceDatabaseUrl,
        `SELECT entity_id, recorded_at FROM audit_log WHERE source = 'claims' AND action = 'claim.created' AND entity_id = ANY($1::text[])`,
        [[...created.keys()]],
      );
      recorded = new Map(rows.map((row) => [row.entity_id, Date.parse(row.recorded_at)]));
      if (recorded.size >= created.size) break;
      if (Date.now() > deadline) throw new Error(`only ${recorded.size} of ${created.size} claims reached the audit log within 120 s`);
      await sleep(250);
    }
    const latencies = [...created].map(([id, createdMs]) => recorded.get(id)! - createdMs);
    // Where the time goes: commit → the relay's publish confirmed (outbox.published_at), then → audit record.
    const outbox = await query<{ claim_id: string; published_ms: string }>(
      stack.claimsDatabaseUrl,
      `SELECT payload->>'subject' AS claim_id, (extract(epoch FROM published_at) * 1000)::float8 AS published_ms
         FROM outbox WHERE routing_key = 'claim.created' AND published_at IS NOT NULL AND created_at >= $1`,
      [t0],
    );
    const published = new Map(outbox.map((row) => [row.claim_id, Number(row.published_ms)]));
    const relayed = [...created].filter(([id]) => published.has(id)).map(([id, createdMs]) => published.get(id)! - createdMs);
    const consumed = [...created].filter(([id]) => published.has(id)).map(([id]) => recorded.get(id)! - published.get(id)!);
    return {
      end_to_end_p50_ms: round(percentile(latencies, 50), 1),
      end_to_end_p99_ms: round(percentile(latencies, 99), 1),
      end_to_end_max_ms: round(percentile(latencies, 100), 1),
      commit_to_published_p50_ms: round(percentile(relayed, 50), 1),
      commit_to_published_p99_ms: round(percentile(relayed, 99), 1),
      published_to_audit_p50_ms: round(percentile(consumed, 50), 1),
      published_to_audit_p99_ms: round(percentile(consumed, 99), 1),
      intake_rate_rps: rate,
      claims_measured: latencies.length,
      intake_p99_ms: round(result.p99_ms, 1),
    };
  },
};
