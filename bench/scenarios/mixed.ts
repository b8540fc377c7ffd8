import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { bearer } from '@platform/testing';
import { INTAKE_PATH, intakeRequest, progressUpdateBody, reportLosses, statusRequests, type CreatedClaim } from '../harness/claimant';
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
 * (kept in results.json as `rss_under_load_slope_by_process_mb_per_10min`).
 *
 * A leak is memory still held after a full collection, in one of two places: the live heap, or native
 * memory (the allocator's, the libraries', buffers' backing stores). The figure is a line through that
 * retained memory (`retained_mb`: the live heap right after the collection, plus the anonymous resident
 * memory outside V8's own mappings — glibc's arenas, blocks mapped on their own, a library's written pages —
 * read together a moment later, from /proc/self/smaps), taken every minute or so under the load from the
 * end of the third minute to the end of the window, as MB per 10 minutes. V8's mappings are left out
 * whole: beyond the live heap they hold free heap pages (60 to 134 MB in the claims process at one live
 * heap of 43 MB, by V8's own sizing) and 3–8 MB more than `heapTotal` counts (pages it pools for reuse),
 * which moved the figure when it was the anonymous RSS less `heapTotal` (until 2026-11-27, sixth session;
 * still reported as `anon_less_heap_total_slope_by_process_mb_per_10min`). The RSS after each collection
 * has its line beside (`rss_slope_by_process_mb_per_10min`): it read −17.5 to +11.5 MB per 10 minutes in
 * three runs whose live heaps and native memory were flat (docs/BENCHMARKS.md). Every reading is under the
 * same load, so none is lighter for being taken after it.
 */
const RSS_READ_MS = 1000;
const RSS_WINDOW_MS = 10000;
const AFTER_COLLECTION_MS = 2000;
const LEAK_READING_EVERY_SEC = 60;
/** The first minute (a fifth of a short run) is left out of the lines under load: heaps grow to their working size there. */
const settleSec = (durationSec: number) => Math.min(60, durationSec / 5);
/** The first three minutes (under a third of a shorter run) are left out of the leak figure: the processes warm up there. */
const leakSettleSec = (durationSec: number) => Math.min(180, durationSec * 0.3);
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
  /** The service's resident memory, and its anonymous and file-backed parts (the pages of node and its libraries). */
  rss_mb: number;
  anon_mb: number;
  file_mb: number;
  /** The V8 heap's live data right after the collection (`heapUsed`). */
  heap_used_mb: number;
  /** What V8 holds for its heap (`heapTotal`), and memory outside it held by JavaScript objects (`external`). */
  heap_total_mb: number;
  external_mb: number;
  /**
   * V8's young generation (one semi-space): request buffers that die young are freed only when it is
   * collected, so its size sets how many pile up in the allocator between two collections.
   */
  new_space_mb: number | null;
  /**
   * What a leak would be in: the live heap, and the anonymous memory outside V8's mappings (`native_mb`:
   * the allocator's, the libraries', buffers' backing stores).
   */
  retained_mb: number;
  native_mb: number;
  /** The anonymous RSS less the heap V8 holds: the retained memory's first definition, with V8's pooled pages in it. */
  anon_less_heap_total_mb: number;
  /** The anonymous resident memory by where it is mapped (the preload says how it tells them apart). */
  anon_by_region_mb: Record<AnonymousRegion, number>;
}

type AnonymousRegion = 'v8' | 'main_arena' | 'mapped' | 'file_private';

interface MemoryReading extends NodeJS.MemoryUsage {
  live_heap: number;
  rss_anon: number;
  rss_file: number;
  new_space: number | null;
  anon_by_region: Record<AnonymousRegion, number>;
}

function readingOf(memoryDir: string, pid: number): AfterCollection | null {
  const mb = (bytes: number) => round(bytes / 2 ** 20, 1);
  for (const member of processTree(pid)) {
    try {
      const reading = JSON.parse(readFileSync(path.join(memoryDir, `${member}.json`), 'utf8')) as MemoryReading;
      const { main_arena, mapped, file_private } = reading.anon_by_region;
      const native = main_arena + mapped + file_private;
      return {
        rss_mb: mb(reading.rss),
        anon_mb: mb(reading.rss_anon),
        file_mb: mb(reading.rss_file),
        heap_used_mb: mb(reading.live_heap),
        heap_total_mb: mb(reading.heapTotal),
        external_mb: mb(reading.external),
        new_space_mb: reading.new_space === null ? null : mb(reading.new_space),
        retained_mb: mb(reading.live_heap + native),
        native_mb: mb(native),
        anon_less_heap_total_mb: mb(reading.live_heap + reading.rss_anon - reading.heapTotal),
        anon_by_region_mb: {
          main_arena: mb(main_arena),
          mapped: mb(mapped),
          file_private: mb(file_private),
          v8: mb(reading.anon_by_region.v8),
        },
      };
    } catch {
      // not the member that ran the service: the next one
    }
  }
  return null;
}

/**
 * Each process's memory once a full collection has run in it (bench/harness/collect-garbage-on-signal.js
 * writes the reading; an earlier one is removed first so that it is never read again). Null for a process
 * that wrote none, and for every process without BENCH_MEMORY_DIR.
 */
async function afterCollection(
  pids: Record<string, number>,
  memoryDir: string | undefined,
): Promise<Record<string, AfterCollection | null>> {
  if (!memoryDir) return Object.fromEntries(Object.keys(pids).map((name) => [name, null]));
  for (const member of Object.values(pids).flatMap(processTree)) {
    rmSync(path.join(memoryDir, `${member}.json`), { force: true });
    try {
      process.kill(member, 'SIGUSR2');
    } catch {
      // the process is gone: its reading shows it
    }
  }
  await delay(AFTER_COLLECTION_MS);
  return Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, readingOf(memoryDir, pid)]));
}

/**
 * The requests of the mix, all through the gateway: claimant reads and writes with their tokens, internal
 * ones with a JWT. The claimants read `read` claims; uploads and status updates go to `written` claims of
 * their own. A status read answers with every file of the claim and a page of up to 25 updates: when the
 * writes went to the claims being read, ~50 files a claim arrived in the ten minutes, every read's answer
 * grew with them and so did the bytes each process carried between two collections — a load that grows
 * through the window, which the memory line read as a leak (docs/BENCHMARKS.md, 2026-11-27, fourth session).
 */
function operations(read: CreatedClaim[], written: CreatedClaim[], authorization: string): MixOperation[] {
  const update = progressUpdateBody();
  const internal = { authorization };
  const searches = ['', 'q=Ana%20Ruiz&', `q=${read[0].claim_number}&`, 'q=POL-100001&'];
  return [
    { name: 'status', weight: 70, requests: statusRequests(read) },
    { name: 'intake', weight: 10, requests: [intakeRequest()] },
    {
      name: 'upload',
      weight: 5,
      requests: written.map((claim) => ({
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
      requests: written.map((claim) => ({
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
      const readClaims = claims();
      const writtenClaims = await reportLosses(stack.claims.url, readClaims.length);
      const mix = operations(readClaims, writtenClaims, await bearer('claims:read claims:write', 'bench-mixed'));
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
      // The leak figure's readings: one full collection per process at the end of the third minute, then about
      // every minute to the end of the window, each under the load.
      const memoryDir = context.processEnv.BENCH_MEMORY_DIR;
      const firstReadingSec = leakSettleSec(params.mixedSec);
      const readingSpanSec = params.mixedSec - firstReadingSec - AFTER_COLLECTION_MS / 1000 - 1;
      const readingCount = Math.max(2, 1 + Math.floor(readingSpanSec / LEAK_READING_EVERY_SEC));
      const leakReadings: ({ t: number } & Record<string, AfterCollection | null>)[] = [];
      let windowOver = false;
      const leakReadingsDone = (async () => {
        for (let i = 0; i < readingCount; i++) {
          const at = firstReadingSec + (i * readingSpanSec) / (readingCount - 1);
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
      const lineThrough = (name: (typeof PLATFORM)[number], pick: (reading: AfterCollection) => number) => {
        const points = leakReadings.flatMap((reading) => {
          const memory = reading[name];
          return memory ? [{ t: reading.t, mb: pick(memory) }] : [];
        });
        return points.length >= 2 ? round(slopePer10Min(points), 2) : null;
      };
      const linesOf = (pick: (reading: AfterCollection) => number) =>
        Object.fromEntries(PLATFORM.map((name) => [name, lineThrough(name, pick)]));
      const retainedSlopes = linesOf((r) => r.retained_mb);
      const fittedRetained = Object.values(retainedSlopes).filter((slope): slope is number => slope !== null);
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
        rss_slope_mb_per_10min: fittedRetained.length === PLATFORM.length ? Math.max(...fittedRetained) : null,
        failures: sustained.failures,
        arrival_rate_rps: rate,
        saturation_rps: round(saturation.achieved_rps, 1),
        saturation_connections: params.connections,
        // Past saturation a failure is information (what gives first), not the figure: `errors` is the sustained window's.
        saturation_failures: saturation.failures,
        backlog_drained_first: drained,
        seconds: round(sustained.seconds, 1),
        operations: Object.fromEntries(Object.entries(ops).map(([name, result]) => [name, latencies(result)])),
        slowest_ms_by_10s: sustained.slowest_ms_by_10s,
        claim_to_audit: audit,
        retained_slope_by_process_mb_per_10min: retainedSlopes,
        heap_used_slope_by_process_mb_per_10min: linesOf((r) => r.heap_used_mb),
        native_slope_by_process_mb_per_10min: linesOf((r) => r.native_mb),
        anon_less_heap_total_slope_by_process_mb_per_10min: linesOf((r) => r.anon_less_heap_total_mb),
        rss_slope_by_process_mb_per_10min: linesOf((r) => r.rss_mb),
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
