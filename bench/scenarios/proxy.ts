import path from 'node:path';
import { freePort, managedProcess } from '@platform/testing';
import type { BenchContext, Scenario } from '../harness/context';
import { nginxVersion, startNginx } from '../harness/nginx';
import { cpuLedger, processTree } from '../harness/process-tree';
import type { CannonResult, RequestSpec } from '../harness/load-protocol';
import { PUBLIC_GET, gatewayToUpstreamEnv, jwtGet } from '../harness/proxied-requests';
import { alternate, medianOf } from '../harness/rounds';
import { round } from '../harness/stats';

const BODY_BYTES = 1024 * 1024;

/**
 * The gateway against the floor the design fixes: a bare Express 5 app with one `createProxyMiddleware`
 * (keep-alive agent) to the same bare Node hello-world upstream (bench/harness/bare-hop.ts). Saturation
 * throughput (2xx/s) at the same connection count, alternating rounds, medians, for three requests:
 * - a claimant's public GET: `throughput_ratio_vs_bare_hop`, and against nginx proxying the same request
 *   to the same upstream, `throughput_ratio_vs_nginx` (reported);
 * - an internal GET with a valid JWT in `Authorization` (the gateway verifies it, the bare hop does not):
 *   `jwt_ratio_vs_bare_hop`;
 * - a public POST whose 1 MiB body is streamed through (the upstream reads it all before it answers):
 *   `body_1mib_ratio_vs_bare_hop`.
 * The CPU time of the gateway and of the bare hop per request is recorded beside each ratio.
 */
export const proxyScenario: Scenario = {
  name: 'gateway',
  keys: ['throughput_ratio_vs_bare_hop', 'jwt_ratio_vs_bare_hop', 'body_1mib_ratio_vs_bare_hop', 'throughput_ratio_vs_nginx'],
  async run(context: BenchContext) {
    const { params, load } = context;
    const upstream = managedProcess('hello-upstream', 'bench/harness/hello-upstream.ts', {}, await freePort());
    await upstream.start();
    const gateway = managedProcess(
      'gateway-to-hello',
      context.build.gateway,
      { ...gatewayToUpstreamEnv(upstream.url), ...context.processEnv },
      await freePort(),
    );
    const bareHop = managedProcess(
      'bare-hop',
      'bench/harness/bare-hop.ts',
      { UPSTREAM_URL: upstream.url, ...context.processEnv },
      await freePort(),
    );
    const nginx = await startNginx(path.join(context.workDir, 'nginx'), await freePort(), upstream.port);
    try {
      await Promise.all([gateway.start(), bareHop.start()]);
      context.processes['gateway-to-hello'] = processTree(gateway.pid()!);
      context.processes['bare-hop'] = processTree(bareHop.pid()!);
      const saturate = (url: string, requests: RequestSpec[], durationSec: number) =>
        load.run({ kind: 'cannon', url, connections: params.connections, durationSec, requests });

      /** Alternating rounds of each side on `requests`; the gateway's and the bare hop's CPU per 2xx. */
      const compare = async (requests: RequestSpec[], extra: Record<string, string> = {}) => {
        const sides: Record<string, { url: string; pid?: number }> = {
          gateway: { url: gateway.url, pid: gateway.pid() },
          bare_hop: { url: bareHop.url, pid: bareHop.pid() },
          ...Object.fromEntries(Object.entries(extra).map(([name, url]) => [name, { url }])),
        };
        for (const { url } of Object.values(sides)) await saturate(url, requests, params.warmupSec);
        const cpu = Object.fromEntries(Object.entries(sides).map(([name, { pid }]) => [name, cpuLedger({ proxy: () => [pid] })]));
        const rounds = await alternate<CannonResult>(
          params.rounds,
          Object.fromEntries(
            Object.keys(sides).map((name) => [name, () => cpu[name].measure(() => saturate(sides[name].url, requests, params.roundSec))]),
          ),
        );
        for (const [side, results] of Object.entries(rounds)) {
          const failed = results.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
          if (failed > 0) throw new Error(`${side}: ${failed} requests failed (non-2xx or errors) during the proxy comparison`);
        }
        const rps = (side: string) => medianOf(rounds[side], (r) => r.rps);
        const cpuMsPerRequest = (side: string) => cpu[side].msPerOperation(rounds[side].reduce((sum, r) => sum + r.ok, 0)).proxy;
        return {
          ratio: round(rps('gateway') / rps('bare_hop')),
          rps,
          details: {
            ...Object.fromEntries(Object.keys(sides).map((side) => [`${side}_rps`, round(rps(side), 0)])),
            gateway_cpu_ms_per_request: cpuMsPerRequest('gateway'),
            bare_hop_cpu_ms_per_request: cpuMsPerRequest('bare_hop'),
            ...Object.fromEntries(
              Object.entries(rounds).map(([side, results]) => [`${side}_rounds_rps`, results.map((r) => round(r.rps, 0))]),
            ),
          },
        };
      };

      const publicGet = await compare(
        [PUBLIC_GET],
        // The upstream alone (its ceiling) only in full runs.
        { nginx: nginx.url, ...(params.mode === 'full' ? { upstream_direct: upstream.url } : {}) },
      );
      const jwtGetComparison = await compare([await jwtGet()]);
      const body = await compare([
        {
          method: 'POST',
          path: '/api/claims/public/claims/7c9e6679-7425-40de-944b-e07fc1f90ae7/attachments',
          headers: { 'content-type': 'application/octet-stream' },
          body: 'x'.repeat(BODY_BYTES),
        },
      ]);
      return {
        throughput_ratio_vs_bare_hop: publicGet.ratio,
        jwt_ratio_vs_bare_hop: jwtGetComparison.ratio,
        body_1mib_ratio_vs_bare_hop: body.ratio,
        throughput_ratio_vs_nginx: round(publicGet.rps('gateway') / publicGet.rps('nginx')),
        proxy_comparison: {
          nginx: nginxVersion(),
          connections: params.connections,
          public_get: publicGet.details,
          jwt_get: jwtGetComparison.details,
          body_1mib_post: body.details,
        },
      };
    } finally {
      await nginx.stop();
      await Promise.all([gateway.stop(), bareHop.stop()]);
      await upstream.stop();
    }
  },
};
