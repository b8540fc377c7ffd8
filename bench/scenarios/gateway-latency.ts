import { statusRequests, type CreatedClaim } from '../harness/claimant';
import type { BenchContext, Scenario } from '../harness/context';
import type { CannonResult, LatencyResult } from '../harness/load-protocol';
import { alternate, medianOf } from '../harness/rounds';
import { round } from '../harness/stats';

/**
 * gateway.added_latency_p50_ms / _p99_ms: the claimant status read through the gateway minus the same
 * read at the claims service directly, both at the same fixed arrival rate: half of the saturation
 * throughput through the gateway (median of `rounds` saturation rounds). Open-loop load with microsecond latencies; per-round differences
 * (gateway round minus the direct round next to it), median of rounds.
 */
export function gatewayLatencyScenario(claims: () => CreatedClaim[]): Scenario {
  return {
    name: 'gateway',
    keys: ['added_latency_p50_ms', 'added_latency_p99_ms'],
    async run(context: BenchContext) {
      const { params, load, stack } = context;
      const requests = statusRequests(claims());
      await load.run({ kind: 'cannon', url: stack.gateway.url, connections: params.connections, durationSec: params.warmupSec, requests });
      // Saturation is the median of `rounds` rounds: one short round on a shared machine can stall and
      // would set the rate of every latency round.
      const saturationRounds: CannonResult[] = [];
      for (let i = 0; i < params.rounds; i++) {
        const result = await load.run({
          kind: 'cannon',
          url: stack.gateway.url,
          connections: params.connections,
          durationSec: params.roundSec,
          requests,
        });
        if (result.non2xx + result.errors > 0) throw new Error(`status via the gateway: ${result.non2xx + result.errors} requests failed`);
        saturationRounds.push(result);
      }
      const saturationRps = medianOf(saturationRounds, (r) => r.rps);
      const rate = Math.max(10, Math.floor(saturationRps / 2));
      const atRate = (url: string) =>
        load.run({ kind: 'openloop', url, rate, connections: params.connections, durationSec: params.roundSec, requests });
      await atRate(stack.claims.url);
      const rounds = await alternate<LatencyResult>(params.rounds, {
        direct: () => atRate(stack.claims.url),
        gateway: () => atRate(stack.gateway.url),
      });
      for (const [side, results] of Object.entries(rounds)) {
        const failed = results.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
        if (failed > 0) throw new Error(`${side}: ${failed} status reads failed at ${rate} req/s`);
      }
      const added = (pick: (r: LatencyResult) => number) => rounds.gateway.map((r, i) => pick(r) - pick(rounds.direct[i]));
      const median = (values: number[]) => medianOf(values, (v) => v);
      return {
        added_latency_p50_ms: round(median(added((r) => r.p50_ms))),
        added_latency_p99_ms: round(median(added((r) => r.p99_ms))),
        latency_comparison: {
          saturation_rps_via_gateway: round(saturationRps, 0),
          saturation_rounds_rps: saturationRounds.map((r) => round(r.rps, 0)),
          rate_rps: rate,
          // What the open-loop generator achieved: the rate the latencies were measured at.
          direct_achieved_rps: round(
            medianOf(rounds.direct, (r) => r.achieved_rps),
            0,
          ),
          gateway_achieved_rps: round(
            medianOf(rounds.gateway, (r) => r.achieved_rps),
            0,
          ),
          connections: params.connections,
          direct_p50_ms: round(medianOf(rounds.direct, (r) => r.p50_ms)),
          direct_p99_ms: round(medianOf(rounds.direct, (r) => r.p99_ms)),
          gateway_p50_ms: round(medianOf(rounds.gateway, (r) => r.p50_ms)),
          gateway_p99_ms: round(medianOf(rounds.gateway, (r) => r.p99_ms)),
          added_p50_rounds_ms: added((r) => r.p50_ms).map((v) => round(v)),
          added_p99_rounds_ms: added((r) => r.p99_ms).map((v) => round(v)),
        },
      };
    },
  };
}
