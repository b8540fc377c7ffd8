import { createHash, hash } from 'node:crypto';
import http from 'node:http';
import { createDatabase, type Knex } from '@platform/db';
import { bearer } from '@platform/testing';
import { appendAuditRecord, chainHead, lockAuditChain, type AuditRecordInput } from '../../services/evidence/src/shared/audit-append';
import { frontierAppend, hashLeaf } from '../../packages/merkle/src';
import { GENESIS_HASH, chainHash, chainTimestamp, recordHash, type AuditRecord } from '../../services/evidence/src/shared/audit-chain';
import { catchUpAuditTree } from '../../services/evidence/src/shared/audit-tree';
import type { BenchContext, Scenario } from '../harness/context';
import { cpuSeconds, rssSampler } from '../harness/process-tree';
import { seedAuditLog } from '../harness/seed-audit';
import { countRows } from '../harness/seed-claims';
import { pgClient } from '../harness/workspace-modules';
import { median, percentile, round, sleep } from '../harness/stats';

/** Records per second of `hashAll` over the sample, in memory (median of rounds of at least a second). */
function hashRate(sample: Buffer[], rounds: number, hashAll: (sample: Buffer[]) => void): number {
  const rates: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const started = process.hrtime.bigint();
    let hashed = 0;
    do {
      hashAll(sample);
      hashed += sample.length;
    } while (Number(process.hrtime.bigint() - started) < 1e9);
    rates.push(hashed / (Number(process.hrtime.bigint() - started) / 1e9));
  }
  return median(rates);
}

/** The baseline: raw SHA-256 over the hashed bytes of the records, once each. */
function rawSha256(sample: Buffer[]): void {
  for (const bytes of sample) createHash('sha256').update(bytes).digest('hex');
}

/**
 * The same with Node's one-shot crypto.hash, which verify itself uses since 2026-11-26 (no Hash object per
 * call): reported beside the baseline, so the ratio is also seen against the fastest raw hashing there is.
 */
function rawSha256OneShot(sample: Buffer[]): void {
  for (const bytes of sample) hash('sha256', bytes, 'hex');
}

/**
 * The hashing verify cannot skip, with nothing read or compared: the chain hash and the leaf hash of each
 * record's bytes and the tree's interior nodes over them, here in the bench process. Reported beside
 * `verify_ratio_vs_sha256` to show how much of verify's time is hashing (the service, on a core of its
 * own, can run it faster than this process does).
 */
function verifyHashesOnly(sample: Buffer[]): void {
  const frontier: Buffer[] = [];
  let prevHash = GENESIS_HASH;
  sample.forEach((bytes, i) => {
    prevHash = chainHash(prevHash, bytes);
    frontierAppend(frontier, i, hashLeaf(bytes));
  });
}

/**
 * GET of a JSON body without a time limit: a verify of the 1 M-record log on a loaded machine can take
 * longer than the 300 s fetch (undici) waits for response headers.
 */
function getJsonUntimed(url: string, authorization: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { authorization } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/** Waits until nothing has been appended to the audit log for a second (claim events of earlier scenarios drained). */
async function auditLogQuiet(databaseUrl: string): Promise<number> {
  let last = -1;
  for (let i = 0; i < 120; i++) {
    const count = await countRows(databaseUrl, 'audit_log');
    if (count === last) return count;
    last = count;
    await sleep(1000);
  }
  return last;
}

/**
 * Waits until the service's background verifier has verified the first `size` records (audit_watch), so a
 * measured verify or proof does not share PostgreSQL with its one-off pass over a freshly seeded batch
 * (900,000 records at the 100× step). Gives up after 10 minutes and measures anyway.
 */
async function backgroundVerifierCaughtUp(databaseUrl: string, size: number, log: (line: string) => void): Promise<void> {
  const client = pgClient(databaseUrl);
  await client.connect();
  try {
    for (const started = Date.now(); Date.now() - started < 600000; await sleep(1000)) {
      const { rows } = await client.query('SELECT verified_size FROM audit_watch');
      if (Number(rows[0]?.verified_size ?? 0) >= size) return;
    }
    log(`  the background verifier has not reached ${size} records after 10 minutes`);
  } finally {
    await client.end();
  }
}

/** Latency of GET /audit/proofs/inclusion for random records of the whole tree, one request at a time. */
async function inclusionProofLatencies(url: string, authorization: string, treeSize: number, count: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const index = Math.floor(Math.random() * treeSize);
    const started = process.hrtime.bigint();
    const response = await fetch(`${url}/api/evidence/audit/proofs/inclusion?index=${index}&tree_size=${treeSize}`, {
      headers: { authorization },
    });
    const proof = (await response.json()) as { proof?: string[] };
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (response.status !== 200 || !proof.proof) throw new Error(`inclusion proof answered ${response.status}: ${JSON.stringify(proof)}`);
  }
  return latencies;
}

const BENCH_RECORD: AuditRecordInput = {
  action: 'bench.appended',
  source: 'evidence',
  entity_type: 'run',
  entity_id: 'bench',
  actor: 'bench',
  data: {},
};

/**
 * The append as it was before the Merkle tree (the chain alone): chain lock, head read, one insert of the
 * record. The baseline of audit.appends_per_s, on the same log.
 */
async function appendChainOnly(db: Knex, input: AuditRecordInput): Promise<void> {
  await db.transaction(async (trx) => {
    await lockAuditChain(trx);
    const head = await trx('audit_log').select('seq', 'hash').orderBy('seq', 'desc').first();
    const recordedAt = chainTimestamp(new Date());
    const unsigned: Omit<AuditRecord, 'hash'> = {
      ...input,
      event_id: null,
      seq: Number(head?.seq ?? 0) + 1,
      occurred_at: recordedAt,
      recorded_at: recordedAt,
      prev_hash: head?.hash ?? GENESIS_HASH,
    };
    await trx('audit_log').insert({ ...unsigned, hash: recordHash(unsigned), data: JSON.stringify(unsigned.data) });
  });
}

/** Records appended per second by `concurrency` writers on their own connections. */
async function appendRate(
  db: Knex,
  count: number,
  concurrency: number,
  append: (db: Knex, input: AuditRecordInput) => Promise<unknown>,
): Promise<number> {
  let next = 0;
  const started = process.hrtime.bigint();
  const writer = async () => {
    while (next++ < count) await append(db, { ...BENCH_RECORD, data: { n: next } });
  };
  await Promise.all(Array.from({ length: concurrency }, writer));
  return count / (Number(process.hrtime.bigint() - started) / 1e9);
}

/**
 * Appends per second with the tree (appendAuditRecord: chain, leaf and the subtrees it completes) and with
 * the chain alone, in alternating rounds on the same log by 8 writers; after each chain-only round the
 * tree is caught up (not timed), as the service does on its next append. Medians of the rounds.
 */
async function appendRates(databaseUrl: string, count: number, rounds: number): Promise<{ tree: number; chainOnly: number }> {
  const concurrency = 8;
  const db = createDatabase({ url: databaseUrl, poolMax: concurrency });
  try {
    const tree: number[] = [];
    const chainOnly: number[] = [];
    for (let round = 0; round < rounds; round++) {
      chainOnly.push(await appendRate(db, count, concurrency, appendChainOnly));
      await db.transaction(async (trx) => {
        await lockAuditChain(trx);
        const head = await chainHead(trx);
        if (head) await catchUpAuditTree(trx, head.seq);
      });
      tree.push(await appendRate(db, count, concurrency, appendAuditRecord));
    }
    return { tree: median(tree), chainOnly: median(chainOnly) };
  } finally {
    await db.destroy();
  }
}

interface VerifyReport {
  valid: boolean;
  records_checked: number;
  duration_ms: number;
  first_invalid: unknown;
}

/**
 * audit.verify_ratio_vs_sha256: audit records verified per second by GET /api/evidence/audit/verify
 * (PostgreSQL → the service → recompute every hash and link) against raw SHA-256 over the same bytes in
 * memory; audit.rss_growth_mb: the evidence process's RSS growth during a verify of the whole log.
 * Both taken at the largest log; the series at 1×, 10× and 100× the records shows whether the cost
 * per record grows with the log. At the largest log (1 M records in the full run) also
 * audit.inclusion_proof_p99_ms (GET /audit/proofs/inclusion for random records, one at a time) and then
 * audit.appends_per_s (appendAuditRecord by 8 writers: chain, leaf and subtrees; the chain-only append beside it).
 */
export const auditScenario: Scenario = {
  name: 'audit',
  keys: ['verify_ratio_vs_sha256', 'rss_growth_mb', 'cost_growth_10x', 'cost_growth_100x', 'inclusion_proof_p99_ms', 'appends_per_s'],
  async run(context: BenchContext) {
    const { params, stack } = context;
    const authorization = await bearer('audit:read', 'bench-examiner');
    const base = Math.max(params.auditBase, await auditLogQuiet(stack.evidenceDatabaseUrl));
    const sample: Buffer[] = [];
    const pid = stack.evidence.pid();
    if (!pid) throw new Error('evidence process has no pid');
    const verify = async (): Promise<{
      seconds: number;
      cpu: number;
      report: VerifyReport;
      rss: ReturnType<ReturnType<typeof rssSampler>['stop']>;
    }> => {
      const memory = rssSampler(pid);
      const cpuBefore = cpuSeconds(pid);
      const started = process.hrtime.bigint();
      const response = await getJsonUntimed(`${stack.evidence.url}/api/evidence/audit/verify`, authorization);
      const report = response.body as VerifyReport;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const cpu = cpuSeconds(pid) - cpuBefore;
      const rss = memory.stop();
      if (response.status !== 200) throw new Error(`audit verify answered ${response.status}: ${JSON.stringify(report)}`);
      if (!report.valid) throw new Error(`audit verify found the seeded chain invalid: ${JSON.stringify(report.first_invalid)}`);
      return { seconds, cpu, report, rss };
    };
    const series: {
      records: number;
      records_per_s: number;
      seconds: number;
      cpu_us_per_record: number;
      rss_growth_mb: number;
      rss_peak_mb: number;
    }[] = [];
    for (const level of [base, base * 10, base * 100]) {
      await seedAuditLog(stack.evidenceDatabaseUrl, level, sample, context.log);
      await backgroundVerifierCaughtUp(stack.evidenceDatabaseUrl, level, context.log);
      if (level === base) await verify(); // warm-up (JIT, plans), excluded
      const runs = [];
      for (let i = 0; i < params.growthRounds; i++) runs.push(await verify());
      const rate = median(runs.map((run) => run.report.records_checked / run.seconds));
      series.push({
        records: runs[0].report.records_checked,
        records_per_s: round(rate, 0),
        seconds: round(median(runs.map((run) => run.seconds)), 2),
        cpu_us_per_record: round(median(runs.map((run) => (1e6 * run.cpu) / run.report.records_checked)), 1),
        rss_growth_mb: round(median(runs.map((run) => run.rss.growth_mb)), 1),
        rss_peak_mb: round(Math.max(...runs.map((run) => run.rss.peak_mb)), 1),
      });
      context.log(`  verify of ${runs[0].report.records_checked} records: ${rate.toFixed(0)}/s`);
    }
    const rawRate = hashRate(sample, params.growthRounds, rawSha256);
    const rawOneShotRate = hashRate(sample, params.growthRounds, rawSha256OneShot);
    const hashesOnlyRate = hashRate(sample, params.growthRounds, verifyHashesOnly);
    const largest = series[series.length - 1];
    const proofs = params.mode === 'quick' ? 200 : 2000;
    await inclusionProofLatencies(stack.evidence.url, authorization, largest.records, 20); // warm-up, excluded
    const latencies = await inclusionProofLatencies(stack.evidence.url, authorization, largest.records, proofs);
    context.log(`  inclusion proofs at ${largest.records} records: p99 ${percentile(latencies, 99).toFixed(1)} ms`);
    const appends = await appendRates(stack.evidenceDatabaseUrl, params.mode === 'quick' ? 150 : 1000, 3);
    context.log(`  appends: ${appends.tree.toFixed(0)}/s with the tree, ${appends.chainOnly.toFixed(0)}/s chain only`);
    return {
      verify_ratio_vs_sha256: round(largest.records_per_s / rawRate, 4),
      rss_growth_mb: largest.rss_growth_mb,
      cost_growth_10x: round(series[0].records_per_s / series[1].records_per_s),
      cost_growth_100x: round(series[0].records_per_s / series[2].records_per_s),
      inclusion_proof_p99_ms: round(percentile(latencies, 99), 1),
      inclusion_proof_p50_ms: round(percentile(latencies, 50), 1),
      inclusion_proof_tree_size: largest.records,
      appends_per_s: round(appends.tree, 0),
      chain_only_appends_per_s: round(appends.chainOnly, 0),
      appends_ratio_vs_chain_only: round(appends.tree / appends.chainOnly, 3),
      verify_records_per_s: largest.records_per_s,
      verify_cpu_us_per_record: largest.cpu_us_per_record,
      raw_sha256_records_per_s: round(rawRate, 0),
      raw_sha256_one_shot_records_per_s: round(rawOneShotRate, 0),
      verify_ratio_vs_sha256_one_shot: round(largest.records_per_s / rawOneShotRate, 4),
      verify_hashes_only_records_per_s: round(hashesOnlyRate, 0),
      verify_hashes_only_ratio: round(hashesOnlyRate / rawRate, 4),
      raw_sha256_sample_records: sample.length,
      mean_record_bytes: round(sample.reduce((sum, b) => sum + b.length, 0) / Math.max(1, sample.length), 0),
      series,
    };
  },
};
