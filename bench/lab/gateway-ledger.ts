/**
 * Where a proxy's CPU goes, step by step, from a V8 CPU profile (e.g. one `gateway-ab.ts` wrote with PROFILE_DIR):
 *
 *   npx tsx bench/lab/gateway-ledger.ts <cpu-PID.cpuprofile> <CPU µs per request> [--leaves=<step prefix>]
 *
 * Every busy sample goes to the innermost gateway step on its stack (the steps' own code and whatever Node
 * does inside it: a security header's `setHeader` is the security headers' cost); a sample with no step
 * below a framework frame (express, router, http-proxy, http-proxy-middleware) is the framework's; the rest
 * is Node's own HTTP work (parser, sockets, streams, timers), the collector's and V8's. Samples under module
 * loading are left out. Shares are turned into µs with the CPU per request measured beside the profile, so
 * the bare hop's profile, read the same way, gives the floor the gateway is held to. `--leaves` lists the
 * functions where one step's samples fell.
 */
import { readCpuProfile, type ProfileNode } from '../harness/cpu-profile';

/** The gateway step a frame belongs to, by its file (and name where one file holds several steps). */
function stepOf({ functionName, url }: ProfileNode['callFrame']): string | undefined {
  if (url.includes('gateway/src/security-headers')) return 'security headers';
  if (url.includes('packages/http/src/request-context')) return 'request id';
  if (url.includes('packages/http/src/observability') || url.includes('packages/http/src/bound-metrics')) return 'metrics and access log';
  if (url.includes('prom-client') || url.includes('gateway/src/route-labels')) return 'metrics and access log';
  if (url.includes('packages/http/src/service-app'))
    return functionName === 'noStoreForApi' ? 'no-store on /api' : functionName === '__name' ? "tsx's __name" : 'one layer (inSequence)';
  if (url.includes('gateway/src/request-path') || functionName === 'decideRoute') return 'path normalisation and decision';
  if (url.includes('gateway/src/forwarding-headers')) return 'header hygiene';
  if (url.includes('gateway/src/public-rate-limit') || url.includes('express-rate-limit')) return 'rate limit';
  if (url.includes('packages/auth')) return 'JWT';
  if (url.includes('gateway/src/upstream-proxy')) return 'proxy options (timeouts, upstream histogram, answer guards)';
  if (url.includes('gateway/src/gateway')) return 'forwarding glue';
  if (url.includes('/tsx') && functionName === '__name') return "tsx's __name";
  return undefined;
}

// The framework's packages wherever they are installed: pnpm's store (the workspace) or a flat node_modules (the production build).
const FRAMEWORK =
  /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?(?:express|router|http-proxy|http-proxy-middleware|parseurl|eventemitter3|requires-port)\/|bench\/harness\/bare-hop/;
const MODULE_LOADING = /node:internal\/modules\/(cjs|esm)\/loader|run_main/;

function main(): void {
  const [file, usArg] = process.argv.slice(2);
  const leavesOf = process.argv.find((arg) => arg.startsWith('--leaves='))?.slice('--leaves='.length);
  const usPerRequest = Number(usArg);
  if (!file || !Number.isFinite(usPerRequest))
    throw new Error('usage: gateway-ledger.ts <cpuprofile> <CPU µs per request> [--leaves=<step>]');
  const profile = readCpuProfile(file);
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const stack = function* (id: number) {
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) yield nodes.get(at)!;
  };

  const byPart = new Map<string, number>();
  const leaves = new Map<string, number>();
  let counted = 0;
  for (const sample of profile.samples) {
    const leaf = nodes.get(sample)!.callFrame;
    if (leaf.functionName === '(idle)') continue;
    if ([...stack(sample)].some((node) => MODULE_LOADING.test(node.callFrame.url))) continue;
    let part = leaf.functionName === '(garbage collector)' ? 'garbage collector' : leaf.functionName === '(program)' ? 'V8 (program)' : '';
    if (!part) {
      part = "Node's HTTP work (parser, sockets, streams, timers)";
      for (const node of stack(sample)) {
        const step = stepOf(node.callFrame);
        if (step) {
          part = step;
          break;
        }
        if (FRAMEWORK.test(node.callFrame.url)) {
          part = 'framework (express, router, http-proxy, http-proxy-middleware, and Node under them)';
          break;
        }
      }
    }
    counted++;
    byPart.set(part, (byPart.get(part) ?? 0) + 1);
    if (leavesOf && part.startsWith(leavesOf)) {
      const name = `${leaf.functionName || '(anonymous)'} ${leaf.url.replace(/^.*node_modules\//, '').replace(/^.*\/work\/[^/]+\//, '')}`;
      leaves.set(name, (leaves.get(name) ?? 0) + 1);
    }
  }
  const us = (samples: number) => ((samples / counted) * usPerRequest).toFixed(1).padStart(6);
  console.log(`${file}: ${counted} busy samples after start-up, ${usPerRequest} µs of CPU per request`);
  for (const [part, samples] of [...byPart].sort((a, b) => b[1] - a[1]))
    console.log(`${((100 * samples) / counted).toFixed(1).padStart(5)}%  ${us(samples)} µs  ${part}`);
  for (const [name, samples] of [...leaves].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`          ${us(samples)} µs  ${name}`);
}

main();
