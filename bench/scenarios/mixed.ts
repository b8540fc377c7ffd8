import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { bearer } from '@platform/testing';
import { INTAKE_PATH, intakeRequest, statusRequests, type CreatedClaim } from '../harness/claimant';
import { claimToAudit, claimsClock, eventsDrained } from '../harness/claim-to-audit';
import type { BenchContext, Scenario } from '../harness/context';
import type { LatencyResult, MixOperation, MixResult } from '../harness/load-protocol';
import { processTree, serviceRssMb } from '../harness/process-tree';
import { round } from '../harness/stats';

/**
 * Under load RSS is read every second and reported per 10 s window (floor and peak). It follows the V8
 * heap's committed size, which the collector grows to about three times the live data between full
 * collections and keeps when the load stops: the claims process swings by 100 MB within a minute with its
 * live heap flat, so a line fitted through those readings reads ±20–150 MB per 10 minutes either way
 * (kept in results.json as `rss_under_load_slope_by_process_mb_per_10min`). A leak is memory still held
 * after a full collection, so the figure is a line through each process's RSS right after one (SIGUSR2,
 * which bench/harness/collect-garbage-on-signal.js answers in every process the bench starts), taken
 * `LEAK_READINGS` times under the load from the end of the first minute (heaps and compiled code grow to
 * their working size there) to the end of the window, as MB per 10 minutes; the live heap after each
 * collection is reported beside it. Every reading is under the same load, so none is lighter for being
 * taken after it.
 */
const RSS_READ_MS = 1000;
const RSS_WINDOW_MS = 10000;
const AFTER_COLLECTION_MS = 2000;
const LEAK_READINGS = 5;
/** The first minute (a fifth of a short run) is left out of the lines under load: heaps grow to their working size there. */
const settleSec = (durationSec: number) => Math.min(60, durationSec / 5);
const PLATFORM = ['gateway', 'claims', 'evidence'] as const;

/** Least-squares slope of (seconds, MB) samples, in MB per 10 minutes. */
function slopePer10Min(samples: { t: number; mb: number }[]): number {
  const n = samples.length;
  const meanT = samples.reduce((sum, s) => sum + s.t, 0) / n;
  const meanMb = samples.reduce((sum, s) => sum + s.mb, 0) / n;
  const covariance = samples.reduce((sum, s) => sum + (s.t - meanT) * (s.mb - meanMb), 0);
  const variance = samples.reduce((sum, s) => sum + (s.t - meanT) ** 2, 0);
  return variance > 0 ? (covariance / variance) * 600 : 0;
}

interface AfterCollection {
  rss_mb: number;
  /** The V8 heap's live data after the collection (`heapUsed`), as the process reported it. */
  heap_used_mb: number | null;
  /** What V8 kept committed for its heap (`heapTotal`), and memory outside it held by JavaScript objects (`external`). */
  heap_total_mb: number | null;
  external_mb: number | null;
}

type ReportedMemory = Pick<AfterCollection, 'heap_used_mb' | 'heap_total_mb' | 'external_mb'>;

function reportedMemory(memoryDir: string | undefined, pid: number): ReportedMemory {
  const mb = (bytes: number) => round(bytes / 2 ** 20, 1);
  for (const member of memoryDir ? processTree(pid) : []) {
    try {
      const usage = JSON.parse(readFileSync(path.join(memoryDir!, `${member}.json`), 'utf8')) as NodeJS.MemoryUsage;
      return { heap_used_mb: mb(usage.heapUsed), heap_total_mb: mb(usage.heapTotal), external_mb: mb(usage.external) };
    } catch {
      // not the member that ran the service: the next one
    }
  }
  return { heap_used_mb: null, heap_total_mb: null, external_mb: null };
}

/** Each process's RSS and live heap (MB) once a full collection has run in each process of its tree and its sweeping has ended. */
async function afterCollection(pids: Record<string, number>, memoryDir: string | undefined): Promise<Record<string, AfterCollection>> {
  for (const member of Object.values(pids).flatMap(processTree)) {
    try {
      process.kill(member, 'SIGUSR2');
    } catch {
      // the process is gone: its reading shows it
    }
  }
  await delay(AFTER_COLLECTION_MS);
  return Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => [name, { rss_mb: round(serviceRssMb(pid), 1), ...reportedMemory(memoryDir, pid) }]),
  );
}

/** The requests of the mix, all through the gateway: claimant reads and writes with their tokens, internal ones with a JWT. */
function operations(claims: CreatedClaim[], authorization: string): MixOperation[] {
  const nextWeek = new Date(Date.now() + 7 * 86400000).toISOString().slice(0, 10);
  const update = JSON.stringify({
    channel: 'portal',
    stage: 'intake', // the stage the claims are in: a progress update, which the lifecycle allows any number of times
    what_happened: 'Your adjuster is reviewing the documents you sent.',
    what_happens_next: 'We will call you to agree the next steps.',
    expected_next_update_by: nextWeek,
    language: 'en',
  });
  const internal = { authorization };
  const searches = ['', 'q=Ana%20Ruiz&', `q=${claims[0].claim_number}&`, 'q=POL-100001&'];
  return [
    { name: 'status', weight: 70, requests: statusRequests(claims) },
    { name: 'intake', weight: 10, requests: [intakeRequest()] },
    {
      name: 'upload',
      weight: 5,
      requests: claims.map((claim) => ({
        method: 'POST',
        path: `${INTAKE_PATH}/${claim.claim_id}/attachments`,
        headers: { authorization: `Bearer ${claim.access_token}` },
        fileBytes: 1024 * 1024,
      })),
    },
    {
      name: 'list',
      weight: 10,
      requests: searches.map((search) => ({ method: 'GET', path: `/api/claims/claims?${search}limit=25`, headers: internal })),
    },
    {
      name: 'status_update',
      weight: 5,
      requests: claims.map((claim) => ({
        method: 'POST',
        path: `/api/claims/claims/${claim.claim_id}/status-updates`,
        headers: { ...internal, 'content-type': 'application/json' },
        body: update,
      })),
    },
  ];
}

function latencies(result: LatencyResult) {
  return { count: result.count, p50_ms: round(result.p50_ms, 1), p99_ms: round(result.p99_ms, 1), max_ms: round(result.max_ms, 1) };
}

function failed(result: MixResult): number {
  return result.errors + result.non2xx;
}

/**
 * A sustained mixed load through the gateway, the closest the bench comes to production traffic: 70%
 * claimant status reads, 10% intakes, 5% 1 MiB attachment uploads, 10% internal list/search, 5% status
 * updates, interleaved by weight. First the saturation of this same mix (closed loop, `connections`
 * callers), then `mixedSec` of open-loop arrivals at 70% of it. Reports the 2xx rate sustained, p99 per
 * operation, every failure, claim → audit latency of the claims created meanwhile, each platform
 * process's RSS under load (floor and peak per 10 s) and its RSS after a full collection before and after
 * the window, whose difference per 10 minutes is the leak figure.
 */
export function mixedScenario(claims: () => CreatedClaim[]): Scenario {
  return {
    name: 'mixed',
    keys: [
      'sustained_rps',
      'p99_ms_status',
      'p99_ms_intake',
      'p99_ms_upload',
      'p99_ms_list',
      'p99_ms_status_update',
      'errors',
      'claim_to_audit_p99_ms',
      'rss_slope_mb_per_10min',
    ],
    async run(context: BenchContext) {
      const { params, load, stack } = context;
      const mix = operations(claims(), await bearer('claims:read claims:write', 'bench-mixed'));
      const url = stack.gateway.url;
      const closedLoop = (durationSec: number) =>
        load.run({ kind: 'mix', url, connections: params.connections, durationSec, operations: mix });
      await closedLoop(params.warmupSec);
      const saturation = await closedLoop(params.mixedSaturationSec);
      const rate = params.mixedRate ?? Math.max(10, Math.round(0.7 * saturation.achieved_rps));
      const drained = await eventsDrained(stack);

      const pids = Object.fromEntries(PLATFORM.map((name) => [name, stack[name].pid()!]));
      const rss: Record<string, { t: number; mb: number; peak_mb: number }[]> = Object.fromEntries(PLATFORM.map((name) => [name, []]));
      const reads: Record<string, { t: number; mb: number }[]> = Object.fromEntries(PLATFORM.map((name) => [name, []]));
      const started = Date.now();
      let windowStart = 0;
      const read = () => {
        const t = (Date.now() - started) / 1000;
        for (const name of PLATFORM) reads[name].push({ t, mb: serviceRssMb(pids[name]) });
      };
      const closeWindow = () => {
        for (const name of PLATFORM) {
          const window = reads[name].slice(windowStart);
          if (window.length === 0) continue;
          const mbs = window.map((r) => r.mb);
          rss[name].push({ t: round(window[0].t, 1), mb: round(Math.min(...mbs), 1), peak_mb: round(Math.max(...mbs), 1) });
        }
        windowStart = reads[PLATFORM[0]].length;
      };
      const sample = () => {
        read();
        if ((reads[PLATFORM[0]].length - windowStart) * RSS_READ_MS >= RSS_WINDOW_MS) closeWindow();
      };
      const t0 = await claimsClock(stack);
      sample();
      const sampler = setInterval(sample, RSS_READ_MS);
      // The leak figure's readings: one full collection per process at the end of the first minute, then evenly
      // to the end of the window, each under the load.
      const memoryDir = context.processEnv.BENCH_MEMORY_DIR;
      const settledSec = settleSec(params.mixedSec);
      const leakReadings: ({ t: number } & Record<string, AfterCollection>)[] = [];
      let windowOver = false;
      const leakReadingsDone = (async () => {
        for (let i = 0; i < LEAK_READINGS; i++) {
          const at = settledSec + (i * (params.mixedSec - settledSec - AFTER_COLLECTION_MS / 1000 - 1)) / (LEAK_READINGS - 1);
          await delay(Math.max(0, started + at * 1000 - Date.now()));
          if (windowOver) return; // the load failed: no collections in whatever runs next
          const t = (Date.now() - started) / 1000;
          leakReadings.push({ t: round(t, 1), ...(await afterCollection(pids, memoryDir)) } as (typeof leakReadings)[number]);
        }
      })();
      let sustained: MixResult;
      try {
        sustained = await load.run({
          kind: 'mix',
          url,
          rate,
          connections: params.connections * 2,
          durationSec: params.mixedSec,
          operations: mix,
        });
      } finally {
        clearInterval(sampler);
        windowOver = true;
      }
      read();
      closeWindow();
      await leakReadingsDone;
      const audit = await claimToAudit(stack, t0);
      const afterLoad = await afterCollection(pids, memoryDir);
      const lineThrough = (name: (typeof PLATFORM)[number], pick: (reading: AfterCollection) => number | null) => {
        const points = leakReadings.flatMap((reading) => {
          const mb = pick(reading[name]);
          return mb === null ? [] : [{ t: reading.t, mb }];
        });
        return points.length >= 2 ? round(slopePer10Min(points), 2) : null;
      };
      const leakSlopes = Object.fromEntries(PLATFORM.map((name) => [name, lineThrough(name, (r) => r.rss_mb)!]));
      const heapSlopes = Object.fromEntries(PLATFORM.map((name) => [name, lineThrough(name, (r) => r.heap_used_mb)]));
      const settled = <T extends { t: number }>(samples: T[]) => samples.filter((sample) => sample.t >= settleSec(params.mixedSec));
      const slopes = Object.fromEntries(PLATFORM.map((name) => [name, round(slopePer10Min(settled(rss[name])), 2)]));
      const instantSlopes = Object.fromEntries(PLATFORM.map((name) => [name, round(slopePer10Min(settled(reads[name])), 2)]));
      const { operations: ops } = sustained;
      return {
        sustained_rps: round(sustained.achieved_rps, 1),
        p99_ms_status: round(ops.status.p99_ms, 1),
        p99_ms_intake: round(ops.intake.p99_ms, 1),
        p99_ms_upload: round(ops.upload.p99_ms, 1),
        p99_ms_list: round(ops.list.p99_ms, 1),
        p99_ms_status_update: round(ops.status_update.p99_ms, 1),
        errors: failed(sustained),
        claim_to_audit_p99_ms: audit.p99_ms,
        rss_slope_mb_per_10min: Math.max(...Object.values(leakSlopes)),
        failures: sustained.failures,
        arrival_rate_rps: rate,
        saturation_rps: round(saturation.achieved_rps, 1),
        saturation_connections: params.connections,
        // Past saturation a failure is information (what gives first), not the figure: `errors` is the sustained window's.
        saturation_failures: saturation.failures,
        backlog_drained_first: drained,
        seconds: round(sustained.seconds, 1),
        operations: Object.fromEntries(Object.entries(ops).map(([name, result]) => [name, latencies(result)])),
        claim_to_audit: audit,
        rss_slope_by_process_mb_per_10min: leakSlopes,
        heap_used_slope_by_process_mb_per_10min: heapSlopes,
        // The readings the slopes are fitted through (seconds into the window), and one more once the load has stopped.
        after_full_collection: { under_load: leakReadings, after_load: afterLoad },
        // Least-squares lines through the readings under load (after the first minute): the heap's sizing, not the figure.
        rss_under_load_slope_by_process_mb_per_10min: slopes,
        rss_under_load_instant_slope_by_process_mb_per_10min: instantSlopes,
        rss_mb: rss,
      };
    },
  };
}
