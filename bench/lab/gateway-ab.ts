/**
 * A/B of gateway versions against the bare hop, with each proxy pinned to a core of its own:
 *
 *   taskset -c 0 npx tsx bench/lab/gateway-ab.ts <checkout>[:NAME=VALUE,…] [<checkout>[:NAME=VALUE,…] …]
 *
 * Each <checkout> is a copy of the repository with its node_modules (e.g. `cp -a` of the work tree before
 * a change), optionally with environment variables of its own for its gateway (e.g. `.:MALLOC_ARENA_MAX=8`
 * beside `.` compares two settings of one tree). Every process gets the services' environment
 * (SERVICE_ENVIRONMENT) first. The bare Node upstream and the load (autocannon, in this process) run on CPU 0; the bare hop
 * and every gateway run on CPU 1, one at a time, in alternating rounds (ROUNDS, default 5, of DURATION
 * seconds, default 4, 32 connections) of a claimant's public GET and an internal GET with a JWT. Printed
 * per side: the proxy's CPU per request (user + system from /proc, so the load's share of the machine does
 * not enter it) and requests per second, as medians, and both as ratios to the bare hop. A pinned proxy
 * saturates its core, so the two ratios agree; `pnpm bench` measures unpinned, as the platform runs.
 * Each gateway runs as the image runs it: its checkout's production build (scripts/build-production.ts,
 * into <checkout>/bench/.work/lab-dist) with BUNDLE_NODE_FLAGS; TSX=1 runs gateway/src/main.ts under tsx
 * instead (for a checkout from before the production build). The baselines run under tsx, as in the benchmark.
 * PROFILE_DIR=<dir> runs the proxies under the V8 profiler (bench/harness/cpu-profiler.js); gateway-ledger.ts
 * reads a bundle's frames through its source map.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import { BUNDLE_NODE_FLAGS, SERVICE_ENVIRONMENT } from '@platform/runtime';
import { cpuSeconds } from '../harness/process-tree';
import { PUBLIC_GET, gatewayToUpstreamEnv, jwtGet } from '../harness/proxied-requests';
import { median } from '../harness/stats';

const ROOT = path.resolve(__dirname, '../..');
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const DURATION_S = Number(process.env.DURATION ?? 4);
const UPSTREAM_PORT = 47100;
const BARE_HOP_PORT = 47101;
const FIRST_GATEWAY_PORT = 47110;

const children: ChildProcess[] = [];

/** `entry` from `cwd`: a bundle (`.js`) with the image's flags, TypeScript under tsx. */
function start(cwd: string, entry: string, port: number, cpu: number, env: Record<string, string> = {}): ChildProcess {
  const profiled = process.env.PROFILE_DIR
    ? { NODE_OPTIONS: `--require ${path.join(ROOT, 'bench/harness/cpu-profiler.js')}`, BENCH_CPU_PROFILE_DIR: process.env.PROFILE_DIR }
    : {};
  const node = entry.endsWith('.js') ? [...BUNDLE_NODE_FLAGS, entry] : ['--import', 'tsx', entry];
  const child = spawn('taskset', ['-c', String(cpu), process.execPath, ...node], {
    cwd,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LOG_LEVEL: 'warn',
      ...SERVICE_ENVIRONMENT,
      ...(cpu === 1 ? profiled : {}),
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(child);
  return child;
}

async function answering(url: string): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      await (await fetch(url)).text();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`${url} never answered`);
}

/** Builds `checkout`'s gateway as its image would (its own build script and pnpm); returns its main.js. */
function productionGateway(checkout: string): string {
  const outDir = path.join(checkout, 'bench/.work/lab-dist');
  const pnpm = path.join(checkout, 'node_modules/.bin/pnpm');
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-production.ts', '--out', outDir, '--only', 'gateway', '--pnpm', pnpm], {
    cwd: checkout,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return path.join(outDir, 'gateway/main.js');
}

async function main(): Promise<void> {
  const checkouts = process.argv.slice(2).map((arg) => {
    const [dir, settings = ''] = arg.split(':');
    const env = Object.fromEntries(
      settings
        .split(',')
        .filter(Boolean)
        .map((setting) => setting.split('=') as [string, string]),
    );
    return { name: arg, dir: path.resolve(dir), env };
  });
  if (checkouts.length === 0) throw new Error('usage: taskset -c 0 npx tsx bench/lab/gateway-ab.ts <checkout>[:NAME=VALUE,…] …');
  const upstream = `http://127.0.0.1:${UPSTREAM_PORT}`;
  start(ROOT, 'bench/harness/hello-upstream.ts', UPSTREAM_PORT, 0);
  const sides = [
    {
      name: 'bare hop',
      url: `http://127.0.0.1:${BARE_HOP_PORT}`,
      pid: start(ROOT, 'bench/harness/bare-hop.ts', BARE_HOP_PORT, 1, { UPSTREAM_URL: upstream }).pid!,
    },
  ];
  checkouts.forEach(({ name, dir, env }, i) => {
    const port = FIRST_GATEWAY_PORT + i;
    const gatewayEnv = { ...gatewayToUpstreamEnv(upstream), ...env };
    const [cwd, entry] = process.env.TSX === '1' ? [dir, 'gateway/src/main.ts'] : [path.dirname(productionGateway(dir)), 'main.js'];
    sides.push({ name, url: `http://127.0.0.1:${port}`, pid: start(cwd, entry, port, 1, gatewayEnv).pid! });
  });
  await answering(upstream);
  await answering(sides[0].url);
  for (const side of sides.slice(1)) await answering(`${side.url}/healthz`);
  const requests = { 'public GET': PUBLIC_GET, 'GET with a JWT': await jwtGet() };
  for (const [kind, request] of Object.entries(requests)) {
    const cpuMs: Record<string, number[]> = {};
    const rps: Record<string, number[]> = {};
    for (const side of sides) await autocannon({ url: side.url + request.path, headers: request.headers, connections: 32, duration: 1 });
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of sides) {
        const cpuBefore = cpuSeconds(side.pid);
        const result = await autocannon({ url: side.url + request.path, headers: request.headers, connections: 32, duration: DURATION_S });
        if (result.non2xx || result.errors) throw new Error(`${side.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
        (cpuMs[side.name] ??= []).push((1000 * (cpuSeconds(side.pid) - cpuBefore)) / result['2xx']);
        (rps[side.name] ??= []).push(result['2xx'] / result.duration);
      }
    }
    const bare = sides[0].name;
    for (const side of sides) {
      const cpu = median(cpuMs[side.name]);
      console.log(
        `${kind} — ${side.name}: ${cpu.toFixed(3)} ms CPU per request [${cpuMs[side.name].map((v) => v.toFixed(3)).join(' ')}], ` +
          `${median(rps[side.name]).toFixed(0)} req/s; vs the bare hop: CPU ${(median(cpuMs[bare]) / cpu).toFixed(2)}×, ` +
          `throughput ${(median(rps[side.name]) / median(rps[bare])).toFixed(2)}×`,
      );
    }
  }
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(async () => {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 3000)); // profiles are written on exit
    for (const child of children) child.kill('SIGKILL');
    process.exit();
  });
