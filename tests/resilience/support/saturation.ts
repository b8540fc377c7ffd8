import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { pendingOutbox, settleAuditLog } from './audit';
import type { LoadRecord, LoadSpec } from './load';
import { describeStatuses, startLoad } from './load-runner';
import { until } from './stack';

const BENCH_RESULTS = path.resolve(__dirname, '../../../bench/results.json');
const WARMUP_SECONDS = 3;
const MEASURED_SECONDS = 8;
const CONCURRENCY = 8;

/** What a scenario's load is sent with, apart from its rate and bounds. */
export type LoadMix = Omit<LoadSpec, 'rate' | 'maxRequests' | 'maxSeconds' | 'concurrency'>;

/** The rate a scenario runs at, and where it came from (for the report). */
export interface ScenarioRate {
  /** Operations a second: one `LoadSpec` operation each (an intake+upload operation is two requests). */
  rate: number;
  /** Measured saturation of the same mix, operations a second; undefined when RESILIENCE_RATE set the rate. */
  saturation?: number;
  /** Claims created by the measurement (they are in the databases before the scenario's own load). */
  claimIds: string[];
  /** One sentence for RELIABILITY.md: the saturation measured and the rate used. */
  describe: string;
}

/** Intakes a second the claims service sustained at saturation in the last `pnpm bench` (bench/results.json). */
export function benchIntakeSaturation(): { rps: number; measuredAt: string } | undefined {
  try {
    const results = JSON.parse(readFileSync(BENCH_RESULTS, 'utf8')) as { generated_at: string; intake?: { service_rps?: number } };
    return results.intake?.service_rps ? { rps: results.intake.service_rps, measuredAt: results.generated_at } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Saturation of `mix`, measured now on this machine (which other work may be sharing): a closed loop of
 * `CONCURRENCY` clients through the load generator for `WARMUP_SECONDS` + `MEASURED_SECONDS`. The throughput
 * is Little's law for a closed loop, clients ÷ mean response time, over the operations started after the
 * warm-up (all of them when fewer than one per client started after it: on a loaded machine an operation of
 * the replicated stack took longer than the whole window), counting only operations whose every request
 * answered 2xx.
 */
export async function measureSaturation(mix: LoadMix): Promise<{ opsPerSecond: number; records: LoadRecord[] }> {
  const records = await startLoad({
    ...mix,
    rate: 0,
    concurrency: CONCURRENCY,
    maxRequests: Number.MAX_SAFE_INTEGER,
    maxSeconds: WARMUP_SECONDS + MEASURED_SECONDS,
  }).finished();
  const byIndex = new Map<number, LoadRecord[]>();
  for (const record of records) byIndex.set(record.i, [...(byIndex.get(record.i) ?? []), record]);
  const ops = [...byIndex.values()].map((op) => ({
    started: Math.min(...op.map((r) => r.started)),
    ended: Math.max(...op.map((r) => r.ended)),
    ok: op.every((r) => r.status !== undefined && r.status >= 200 && r.status < 300) && (mix.mode !== 'intake+upload' || op.length === 2),
  }));
  const warmedUp = Math.min(...ops.map((op) => op.started)) + WARMUP_SECONDS * 1000;
  const afterWarmup = ops.filter((op) => op.started >= warmedUp);
  const measured = afterWarmup.length >= CONCURRENCY ? afterWarmup : ops;
  const busySeconds = measured.reduce((sum, op) => sum + (op.ended - op.started), 0) / 1000;
  const opsPerSecond = busySeconds > 0 ? (CONCURRENCY * measured.filter((op) => op.ok).length) / busySeconds : 0;
  return { opsPerSecond, records };
}

/**
 * The rate of a load scenario: `RESILIENCE_RATE` when set, else half of the saturation of the scenario's own
 * mix measured at the start against the scenario's stack. The measurement's backlog (outbox, audit log) is
 * drained before the scenario starts, and any of its claims lost or duplicated is an error.
 */
export async function halfOfSaturation(
  mix: LoadMix,
  stack: { claimsDatabaseUrl: string; evidenceDatabaseUrl: string },
): Promise<ScenarioRate> {
  const override = process.env.RESILIENCE_RATE;
  if (override) {
    const rate = Number(override);
    if (!(rate > 0)) throw new Error(`RESILIENCE_RATE must be a positive number of requests a second, not ${override}`);
    return { rate, claimIds: [], describe: `${rate}/s, set by RESILIENCE_RATE (saturation not measured)` };
  }
  const machine = `load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores`;
  const { opsPerSecond, records } = await measureSaturation(mix);
  if (opsPerSecond === 0) throw new Error(`no ${mix.mode} operation completed while measuring saturation: ${describeBurst(records)}`);
  const claimIds = records.filter((r) => r.op === 'intake' && r.status === 201 && r.claim_id).map((r) => r.claim_id!);
  await until('outbox of the saturation burst drained', async () => (await pendingOutbox(stack.claimsDatabaseUrl)) === 0, 120000);
  const audit = await settleAuditLog(stack.evidenceDatabaseUrl, claimIds);
  if (audit.lost.length + audit.duplicated.length > 0)
    throw new Error(`saturation burst: ${audit.lost.length} claims lost, ${audit.duplicated.length} duplicated in the audit log`);
  // one decimal: on a loaded machine saturation can be a few operations a second, where whole numbers are far off half
  const rate = Math.max(0.5, Math.round(opsPerSecond * 5) / 10);
  const unit = mix.mode === 'intake+upload' ? 'intake+upload pairs' : `${mix.mode} requests`;
  const bench = benchIntakeSaturation();
  return {
    rate,
    saturation: opsPerSecond,
    claimIds,
    describe:
      `${rate} ${unit}/s — half of the ${opsPerSecond.toFixed(1)}/s this stack saturated at with the same mix, measured at the start ` +
      `(closed loop of ${CONCURRENCY} clients for ${WARMUP_SECONDS + MEASURED_SECONDS} s, clients ÷ mean response time after ${WARMUP_SECONDS} s of warm-up; ${machine}; ${describeBurst(records)}); ` +
      `pnpm bench: ${bench ? `${bench.rps} intakes/s directly at one claims process on ${bench.measuredAt.slice(0, 10)}` : 'no figure yet'}`,
  };
}

function describeBurst(records: LoadRecord[]): string {
  const failed = records.filter((r) => r.status === undefined || r.status < 200 || r.status >= 300);
  return `${records.length} requests, not 2xx: ${describeStatuses(failed)}`;
}
