import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UUID_PATTERN } from '@platform/http';
import { createEmptyDatabase, freePort, managedProcess } from '@platform/testing';
import { intakeRequest, reportLoss } from '../harness/claimant';
import type { BenchContext, Scenario } from '../harness/context';
import type { CannonResult, SqlResult, SqlStatement } from '../harness/load-protocol';
import { cpuLedger, serverRoots } from '../harness/process-tree';
import { alternate, medianOf } from '../harness/rounds';
import { countRows, seedClaims } from '../harness/seed-claims';
import { round } from '../harness/stats';
import { pgClient } from '../harness/workspace-modules';

interface PostgresCounters {
  wal_bytes: number;
  wal_fpi: number;
  checkpoints: number;
  blocks_read: number;
  blocks_hit: number;
  /** Buffers (hit + read) of each table and index of the claims database. */
  relations: Record<string, number>;
}

/**
 * What PostgreSQL did while the growth series measured (cluster-wide WAL and checkpoints, the claims
 * database's buffer reads and hits): per intake, they show whether the time that grows with the table is
 * WAL (full-page images of index pages first touched after a checkpoint) or reads from outside shared buffers.
 */
async function postgresCounters(databaseUrl: string): Promise<PostgresCounters> {
  const client = pgClient(databaseUrl);
  await client.connect();
  try {
    const wal = (await client.query('SELECT wal_bytes::float8 AS bytes, wal_fpi::float8 AS fpi FROM pg_stat_wal')).rows[0];
    // PostgreSQL 17 moved the checkpoint counters to pg_stat_checkpointer.
    const checkpoints = await client
      .query('SELECT (num_timed + num_requested)::float8 AS n FROM pg_stat_checkpointer')
      .catch(() => client.query('SELECT (checkpoints_timed + checkpoints_req)::float8 AS n FROM pg_stat_bgwriter'));
    const blocks = (
      await client.query(
        'SELECT blks_read::float8 AS read, blks_hit::float8 AS hit FROM pg_stat_database WHERE datname = current_database()',
      )
    ).rows[0];
    const relations = await client.query(
      `SELECT relname AS name, (coalesce(heap_blks_hit, 0) + coalesce(heap_blks_read, 0))::float8 AS blocks FROM pg_statio_user_tables
       UNION ALL
       SELECT indexrelname, (idx_blks_hit + idx_blks_read)::float8 FROM pg_statio_user_indexes`,
    );
    return {
      wal_bytes: wal.bytes,
      wal_fpi: wal.fpi,
      checkpoints: checkpoints.rows[0].n,
      blocks_read: blocks.read,
      blocks_hit: blocks.hit,
      relations: Object.fromEntries(relations.rows.map((row: { name: string; blocks: number }) => [row.name, row.blocks])),
    };
  } finally {
    await client.end();
  }
}

interface CapturedQuery extends SqlStatement {
  connection: number;
  pid: number;
}

/**
 * The SQL of one intake, as it went over the wire: a separate claims process (never the one measured)
 * is started with a node-postgres hook, a few intakes warm it up, and the statements of the next one
 * are kept: the BEGIN … COMMIT block that inserts the claim, on its connection.
 */
async function captureIntakeSql(
  context: BenchContext,
): Promise<{ statements: SqlStatement[]; existingIds: string[]; databaseUrl: string; drop(): Promise<void> }> {
  const database = await createEmptyDatabase('bench_sql');
  const file = path.join(context.workDir, 'intake-sql.jsonl');
  writeFileSync(file, '');
  const capture = managedProcess(
    'claims-sql-capture',
    'services/claims/src/main.ts',
    {
      ...context.stack.env,
      DATABASE_URL: database.url,
      NODE_OPTIONS: `--require ${path.resolve(__dirname, '../harness/sql-capture.js')}`,
      BENCH_SQL_CAPTURE: file,
    },
    await freePort(),
  );
  try {
    await capture.start();
    for (let i = 0; i < 3; i++) await reportLoss(capture.url, i);
    const before = readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
    await reportLoss(capture.url, 99);
    const all = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as CapturedQuery);
    const queries = all.slice(before);
    // the statement that inserts the claim (on its own, or as one item of a WITH that writes the claim file)
    const insertAt = queries.findIndex((q) => /\binsert into "?claims"?\s/i.test(q.text));
    if (insertAt < 0) throw new Error(`no INSERT INTO claims among the ${queries.length} captured statements of one intake`);
    const { connection, pid } = queries[insertAt];
    const mine = queries.filter((q) => q.connection === connection && q.pid === pid);
    const at = mine.indexOf(queries[insertAt]);
    let begin = at;
    while (begin > 0 && !/^\s*begin/i.test(mine[begin].text)) begin--;
    let end = at;
    while (end < mine.length - 1 && !/^\s*commit/i.test(mine[end].text)) end++;
    if (!/^\s*begin/i.test(mine[begin].text) || !/^\s*commit/i.test(mine[end].text))
      throw new Error('the intake transaction was not captured whole');
    // the warm-up intakes made the claimant (the same one each time) and its key: the captured one only refers to them
    const existingIds = [
      ...new Set(
        all.slice(0, before).flatMap((q) => (q.values ?? []).filter((v): v is string => typeof v === 'string' && UUID_PATTERN.test(v))),
      ),
    ];
    return {
      statements: mine.slice(begin, end + 1).map(({ text, values }) => ({ text, values })),
      existingIds,
      databaseUrl: database.url,
      drop: () => database.drop(),
    };
  } catch (error) {
    await database.drop();
    throw error;
  } finally {
    await capture.stop();
  }
}

/**
 * intake.throughput_ratio_vs_db: FNOL intakes per second at the claims service (HTTP, validation,
 * transaction, response) against the same SQL statements replayed by bare node-postgres clients, both
 * with the same number in flight (the service's pool size). Then the growth series: intake throughput
 * with the claims table at 1×, 10× and 100× (seeded with bulk SQL).
 */
export const intakeScenario: Scenario = {
  name: 'intake',
  keys: ['throughput_ratio_vs_db', 'cost_growth_10x', 'cost_growth_100x'],
  async run(context: BenchContext) {
    const { params, load, stack } = context;
    const captured = await captureIntakeSql(context);
    try {
      const requests = [intakeRequest()];
      const concurrency = params.intakeConcurrency;
      const intake = (durationSec: number) =>
        load.run({ kind: 'cannon', url: stack.claims.url, connections: concurrency, durationSec, requests });
      const bareSql = (durationSec: number) =>
        load.run({
          kind: 'sql',
          databaseUrl: captured.databaseUrl,
          connections: concurrency,
          durationSec,
          statements: captured.statements,
          existingIds: captured.existingIds,
        });
      await intake(params.warmupSec);
      const warm = await bareSql(params.warmupSec);
      if (warm.errors > 0) throw new Error(`bare-SQL replay failed: ${warm.first_error}`);
      const postgres = serverRoots('postgres');
      const rabbitmq = serverRoots('beam.smp');
      const serviceCpu = cpuLedger({
        claims: () => [stack.claims.pid()],
        evidence: () => [stack.evidence.pid()],
        postgres: () => postgres,
        rabbitmq: () => rabbitmq,
        load: () => [load.pid],
      });
      const bareSqlCpu = cpuLedger({ postgres: () => postgres, load: () => [load.pid] });
      const rounds = await alternate<CannonResult | SqlResult>(params.rounds, {
        service: () => serviceCpu.measure(() => intake(params.roundSec)),
        bare_sql: () => bareSqlCpu.measure(() => bareSql(params.roundSec)),
      });
      const service = rounds.service as CannonResult[];
      const sql = rounds.bare_sql as SqlResult[];
      const failed = service.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
      if (failed > 0) throw new Error(`intake: ${failed} requests failed (non-2xx or errors)`);
      const sqlErrors = sql.reduce((sum, r) => sum + r.errors, 0);
      if (sqlErrors > 0)
        throw new Error(`bare-SQL replay: ${sqlErrors} transactions failed: ${sql.find((r) => r.first_error)?.first_error}`);
      const serviceRps = medianOf(service, (r) => r.rps);
      const sqlTps = medianOf(sql, (r) => r.tps);
      context.shared.intakeRps = serviceRps;
      const serviceCpuMs = serviceCpu.msPerOperation(service.reduce((sum, r) => sum + r.ok, 0));
      const bareSqlCpuMs = bareSqlCpu.msPerOperation(sql.reduce((sum, r) => sum + r.done, 0));

      const growth: {
        claims: number;
        rps: number;
        ms_per_intake: number;
        p99_ms: number;
        wal_kb_per_intake: number;
        full_page_images_per_intake: number;
        blocks_read_per_intake: number;
        blocks_hit_per_intake: number;
        checkpoints: number;
        busiest_relations_blocks_per_intake: Record<string, number>;
      }[] = [];
      const base = Math.max(params.claimBase, await countRows(stack.claimsDatabaseUrl, 'claims'));
      for (const claims of [base, base * 10, base * 100]) {
        await seedClaims(stack.claimsDatabaseUrl, stack.env.DATA_DIR, claims, context.log);
        await intake(params.warmupSec);
        const results: CannonResult[] = [];
        const before = await postgresCounters(stack.claimsDatabaseUrl);
        for (let i = 0; i < params.growthRounds; i++) results.push(await intake(params.roundSec));
        const after = await postgresCounters(stack.claimsDatabaseUrl);
        const intakes = results.reduce((sum, r) => sum + r.ok, 0);
        const perIntake = (key: Exclude<keyof PostgresCounters, 'relations'>, scale = 1) =>
          round((after[key] - before[key]) / scale / Math.max(1, intakes), 2);
        const rps = medianOf(results, (r) => r.rps);
        growth.push({
          claims,
          rps: round(rps, 1),
          ms_per_intake: round((1000 * concurrency) / rps),
          p99_ms: medianOf(results, (r) => r.latency_p99_ms),
          wal_kb_per_intake: perIntake('wal_bytes', 1024),
          full_page_images_per_intake: perIntake('wal_fpi'),
          blocks_read_per_intake: perIntake('blocks_read'),
          blocks_hit_per_intake: perIntake('blocks_hit'),
          checkpoints: after.checkpoints - before.checkpoints,
          busiest_relations_blocks_per_intake: Object.fromEntries(
            Object.entries(after.relations)
              .map(([name, blocks]) => [name, round((blocks - (before.relations[name] ?? 0)) / Math.max(1, intakes), 1)] as const)
              .sort((a, b) => b[1] - a[1])
              .slice(0, 8),
          ),
        });
        context.log(`  intake with ${claims} claims: ${rps.toFixed(0)}/s`);
      }
      return {
        throughput_ratio_vs_db: round(serviceRps / sqlTps),
        cost_growth_10x: round(growth[1].ms_per_intake / growth[0].ms_per_intake),
        cost_growth_100x: round(growth[2].ms_per_intake / growth[0].ms_per_intake),
        service_rps: round(serviceRps, 1),
        bare_sql_tps: round(sqlTps, 1),
        concurrency,
        service_rounds_rps: service.map((r) => round(r.rps, 1)),
        bare_sql_rounds_tps: sql.map((r) => round(r.tps, 1)),
        service_latency_p99_ms: medianOf(service, (r) => r.latency_p99_ms),
        claims_cpu_ms_per_intake: serviceCpuMs.claims,
        // Where an intake's CPU goes on the shared cores, beside the replay's; the quotient of the totals is the
        // ratio if both sides were bound by CPU alone (the event's relay and audit record are on the service's side).
        cpu_ms_per_intake: serviceCpuMs,
        cpu_ms_per_bare_sql: bareSqlCpuMs,
        cpu_ratio_vs_db: round(bareSqlCpuMs.total / serviceCpuMs.total),
        statements_per_intake: captured.statements.length,
        statements: captured.statements.map((s) => s.text.replace(/\s+/g, ' ').slice(0, 160)),
        growth,
      };
    } finally {
      await captured.drop();
    }
  },
};
