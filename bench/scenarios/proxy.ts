import path from 'node:path';
import { TEST_JWT_SECRET, freePort, managedProcess } from '@platform/testing';
import type { BenchContext, Scenario } from '../harness/context';
import { nginxVersion, startNginx } from '../harness/nginx';
import { measureCpu, processTree } from '../harness/process-tree';
import type { CannonResult, RequestSpec } from '../harness/load-protocol';
import { alternate, medianOf } from '../harness/rounds';
import { round } from '../harness/stats';

/**
 * gateway.throughput_ratio_vs_nginx: the gateway proxying a public GET to a bare Node hello-world
 * upstream, against nginx (Debian package) proxying the same request to the same upstream; saturation
 * throughput (2xx/s) at the same connection count, alternating rounds, medians.
 */
export const proxyScenario: Scenario = {
  name: 'gateway',
  keys: ['throughput_ratio_vs_nginx'],
  async run(context: BenchContext) {
    const { params, load } = context;
    const upstream = managedProcess('hello-upstream', 'bench/harness/hello-upstream.ts', {}, await freePort());
    await upstream.start();
    const gateway = managedProcess(
      'gateway-to-hello',
      'gateway/src/main.ts',
      {
        NODE_ENV: 'test',
        AUTH_JWT_SECRET: TEST_JWT_SECRET,
        CLAIMS_URL: upstream.url,
        EVIDENCE_URL: upstream.url,
        PUBLIC_RATE_LIMIT: '0',
        ...context.processEnv,
      },
      await freePort(),
    );
    const nginx = await startNginx(path.join(context.workDir, 'nginx'), await freePort(), upstream.port);
    try {
      await gateway.start();
      context.processes['gateway-to-hello'] = processTree(gateway.pid()!);
      // A claimant status read: public group, no platform credentials, answered by the upstream.
      const requests: RequestSpec[] = [
        {
          method: 'GET',
          path: '/api/claims/public/claims/7c9e6679-7425-40de-944b-e07fc1f90ae7/status',
          headers: { authorization: 'Bearer claimant-token' },
        },
      ];
      const saturate = (url: string, durationSec: number) =>
        load.run({ kind: 'cannon', url, connections: params.connections, durationSec, requests });
      await saturate(gateway.url, params.warmupSec);
      await saturate(nginx.url, params.warmupSec);
      const gatewayPid = gateway.pid()!;
      let gatewayCpu = 0;
      const rounds = await alternate<CannonResult>(params.rounds, {
        gateway: async () => {
          const { result, cpu_s } = await measureCpu(gatewayPid, () => saturate(gateway.url, params.roundSec));
          gatewayCpu += cpu_s;
          return result;
        },
        nginx: () => saturate(nginx.url, params.roundSec),
        // The upstream alone (its ceiling); skipped by --quick.
        ...(params.mode === 'full' ? { upstream_direct: () => saturate(upstream.url, params.roundSec) } : {}),
      });
      for (const [side, results] of Object.entries(rounds)) {
        const failed = results.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
        if (failed > 0) throw new Error(`${side}: ${failed} requests failed (non-2xx or errors) during the proxy comparison`);
      }
      const gatewayRps = medianOf(rounds.gateway, (r) => r.rps);
      const nginxRps = medianOf(rounds.nginx, (r) => r.rps);
      return {
        throughput_ratio_vs_nginx: round(gatewayRps / nginxRps),
        proxy_comparison: {
          nginx: nginxVersion(),
          connections: params.connections,
          gateway_rps: round(gatewayRps, 0),
          nginx_rps: round(nginxRps, 0),
          upstream_direct_rps: rounds.upstream_direct
            ? round(
                medianOf(rounds.upstream_direct, (r) => r.rps),
                0,
              )
            : null,
          gateway_cpu_ms_per_request: round((1000 * gatewayCpu) / rounds.gateway.reduce((sum, r) => sum + r.ok, 0)),
          gateway_rounds_rps: rounds.gateway.map((r) => round(r.rps, 0)),
          nginx_rounds_rps: rounds.nginx.map((r) => round(r.rps, 0)),
        },
      };
    } finally {
      await nginx.stop();
      await gateway.stop();
      await upstream.stop();
    }
  },
};
