import { freePort, managedProcess } from '@platform/testing';
import { statusRequests, type CreatedClaim } from '../harness/claimant';
import type { BenchContext, Scenario } from '../harness/context';
import type { CannonResult } from '../harness/load-protocol';
import { cpuLedger, serverRoots } from '../harness/process-tree';
import { alternate, medianOf } from '../harness/rounds';
import { round } from '../harness/stats';

/**
 * status.throughput_ratio_vs_hello: the claimant status read at the claims service (token check,
 * claim, checklist and latest update from PostgreSQL) against a bare Express 5 hello-world; saturation
 * throughput at the same connection count, alternating rounds, medians.
 */
export function statusScenario(claims: () => CreatedClaim[]): Scenario {
  return {
    name: 'status',
    keys: ['throughput_ratio_vs_hello'],
    async run(context: BenchContext) {
      const { params, load, stack } = context;
      const hello = managedProcess('hello-express', 'bench/harness/hello-express.ts', {}, await freePort());
      await hello.start();
      try {
        const statusReads = statusRequests(claims());
        const helloReads = claims().map((claim) => ({ method: 'GET', path: `/hello/${claim.claim_id}` }));
        const saturate = (url: string, requests: typeof helloReads, durationSec: number) =>
          load.run({ kind: 'cannon', url, connections: params.connections, durationSec, requests });
        await saturate(stack.claims.url, statusReads, params.warmupSec);
        await saturate(hello.url, helloReads, params.warmupSec);
        const postgres = serverRoots('postgres');
        const readCpu = cpuLedger({ claims: () => [stack.claims.pid()], postgres: () => postgres, load: () => [load.pid] });
        const helloCpu = cpuLedger({ hello: () => [hello.pid()], load: () => [load.pid] });
        const rounds = await alternate<CannonResult>(params.rounds, {
          status: () => readCpu.measure(() => saturate(stack.claims.url, statusReads, params.roundSec)),
          hello: () => helloCpu.measure(() => saturate(hello.url, helloReads, params.roundSec)),
        });
        const failed = rounds.status.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
        if (failed > 0) throw new Error(`status read: ${failed} requests failed (non-2xx or errors)`);
        const statusRps = medianOf(rounds.status, (r) => r.rps);
        const helloRps = medianOf(rounds.hello, (r) => r.rps);
        context.shared.statusRps = statusRps;
        const readCpuMs = readCpu.msPerOperation(rounds.status.reduce((sum, r) => sum + r.ok, 0));
        const helloCpuMs = helloCpu.msPerOperation(rounds.hello.reduce((sum, r) => sum + r.ok, 0));
        return {
          throughput_ratio_vs_hello: round(statusRps / helloRps),
          status_rps: round(statusRps, 0),
          hello_rps: round(helloRps, 0),
          connections: params.connections,
          claims_read: statusReads.length,
          status_rounds_rps: rounds.status.map((r) => round(r.rps, 0)),
          hello_rounds_rps: rounds.hello.map((r) => round(r.rps, 0)),
          status_latency_p99_ms: medianOf(rounds.status, (r) => r.latency_p99_ms),
          claims_cpu_ms_per_read: readCpuMs.claims,
          // What each side costs the shared cores; their quotient is the ratio if both were bound by CPU alone.
          cpu_ms_per_read: readCpuMs,
          cpu_ms_per_hello: helloCpuMs,
          cpu_ratio_vs_hello: round(helloCpuMs.total / readCpuMs.total),
        };
      } finally {
        await hello.stop();
      }
    },
  };
}
