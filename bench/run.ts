/**
 * `pnpm bench` (full, ~27–37 minutes on the hosts here) and `pnpm bench --quick` (CI smoke test, < 2 minutes).
 *
 * Builds the platform as production runs it (scripts/build-production.ts: the esbuild bundles and their
 * production dependencies, in <work-dir>/dist); starts gateway, claims and evidence from that build as
 * separate processes on fresh PostgreSQL databases and the real RabbitMQ (@platform/testing startStack), a
 * load generator process, baselines (nginx, hello-worlds, bare SQL, fs writes, raw SHA-256); runs every
 * scenario and writes bench/results.json with each figure, its baseline from the same run and
 * `targets: { key: { value, target, met } }`.
 *
 * Exit code: 0 whenever the benchmark ran (missed targets are data, not failures); 1 when something
 * broke (a scenario could not run: an endpoint failing, a process not starting).
 *
 * Options: --quick; --only=gateway,status,intake,events,upload,mixed,audit,binder,financials,privacy,search,web (a subset);
 * --profile (every platform process runs under the V8 CPU profiler, harness/cpu-profiler.js; summaries in
 * bench/.work/profiles);
 * --mixed-sec=<seconds> (the mixed load's length instead of 600, or 30 with --quick: a longer soak, or a short look);
 * --mixed-rate=<requests/s> (the mixed load's arrival rate instead of 70% of its saturation: two versions at one load);
 * --out=<file> (default bench/results.json);
 * --work-dir=<dir> (default bench/.work, emptied at start: give concurrent runs each their own).
 */

import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deleteTopology, startStack, type Stack, type StackEntries } from '@platform/testing';
import { buildProduction, productionProcesses, WORKSPACE_PNPM, type ProductionProcess } from '../scripts/build-production';
import { reportLosses, type CreatedClaim } from './harness/claimant';
import { parameters, type BenchContext, type Scenario } from './harness/context';
import { summariseCpuProfile } from './harness/cpu-profile';
import { LoadGenerator } from './harness/load-client';
import { ensureNginx, nginxVersion } from './harness/nginx';
import { processTree } from './harness/process-tree';
import { evaluateTargets, TARGETS } from './harness/targets';
import { areaJsGzipKb } from './harness/web-bundle';
import { pgClient } from './harness/workspace-modules';
import { auditScenario } from './scenarios/audit';
import { binderScenario } from './scenarios/binder';
import { eventsScenario } from './scenarios/events';
import { financialsScenario } from './scenarios/financials';
import { gatewayLatencyScenario } from './scenarios/gateway-latency';
import { intakeScenario } from './scenarios/intake';
import { mixedScenario } from './scenarios/mixed';
import { privacyScenario } from './scenarios/privacy';
import { proxyScenario } from './scenarios/proxy';
import { searchScenario } from './scenarios/search';
import { statusScenario } from './scenarios/status';
import { uploadScenario } from './scenarios/upload';

const ROOT = path.resolve(__dirname, '..');

function option(name: string): string | undefined {
  const prefix = `--${name}=`;
  return process.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length);
}

function log(line: string): void {
  process.stdout.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
}

/** The server's version and the settings a reader needs to weigh its figures. */
async function postgresDescription(url: string): Promise<string> {
  const client = pgClient(url);
  await client.connect();
  try {
    const { rows } = await client.query(
      "SELECT current_setting('server_version') AS version, current_setting('autovacuum') AS autovacuum, current_setting('shared_buffers') AS shared_buffers",
    );
    const { version, autovacuum, shared_buffers } = rows[0];
    return `${version}, autovacuum ${autovacuum}, shared_buffers ${shared_buffers}`;
  } finally {
    await client.end();
  }
}

function machine(postgres: string) {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpu_model: cpus[0]?.model ?? 'unknown',
    memory_gb: Math.round(os.totalmem() / 1024 ** 3),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    postgres,
    nginx: (() => {
      try {
        return nginxVersion();
      } catch {
        return 'not installed';
      }
    })(),
    network: 'loopback only (127.0.0.1); load generator, servers, PostgreSQL and RabbitMQ share the same cores',
  };
}

async function main(): Promise<number> {
  const quick = process.argv.includes('--quick');
  const profile = process.argv.includes('--profile');
  const only = option('only')?.split(',');
  const out = path.resolve(option('out') ?? path.join(ROOT, 'bench/results.json'));
  const params = parameters(quick);
  if (option('mixed-sec')) params.mixedSec = Number(option('mixed-sec'));
  if (option('mixed-rate')) params.mixedRate = Number(option('mixed-rate'));
  const workDir = path.resolve(option('work-dir') ?? path.join(ROOT, 'bench/.work'));
  const profileDir = path.join(workDir, 'profiles');
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  const started = Date.now();
  const results: Record<string, any> = {};
  const errors: { scenario: string; error: string }[] = [];
  const fail = (scenario: string, error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    errors.push({ scenario, error: message.slice(0, 2000) });
    log(`${scenario} FAILED: ${message.split('\n')[0]}`);
  };

  log(`mode ${params.mode}${only ? `, only ${only.join(',')}` : ''}${profile ? ', profiling' : ''}`);
  const wants = (group: string) => !only || only.includes(group);
  let nginxReady = false;
  if (wants('gateway')) {
    try {
      ensureNginx(log);
      nginxReady = true;
    } catch (error) {
      fail('nginx', error);
    }
  }
  const load = new LoadGenerator();
  const preloads = ['harness/collect-garbage-on-signal.js', ...(profile ? ['harness/cpu-profiler.js'] : [])];
  const processEnv: Record<string, string> = {
    NODE_OPTIONS: preloads.map((file) => `--require ${path.join(__dirname, file)}`).join(' '),
    BENCH_MEMORY_DIR: path.join(workDir, 'memory'),
    ...(profile ? { BENCH_CPU_PROFILE_DIR: profileDir } : {}),
  };
  mkdirSync(processEnv.BENCH_MEMORY_DIR, { recursive: true });
  let stack: Stack | undefined;
  let build: StackEntries | undefined;
  let postgres = 'unknown';
  const pids: Record<string, number[]> = {};
  try {
    if (profile) mkdirSync(profileDir, { recursive: true });
    const buildStarted = Date.now();
    build = await buildProduction(path.join(workDir, 'dist'), Object.keys(productionProcesses) as ProductionProcess[], {
      pnpm: WORKSPACE_PNPM,
      quiet: true,
    });
    log(`production build in ${Date.now() - buildStarted} ms`);
    if (wants('web')) {
      // buildProduction made web/dist (the gateway's runtime files): what each area's pages download.
      const dist = path.join(ROOT, 'web/dist');
      results.web = {
        portal_js_gzip_kb: areaJsGzipKb(dist, 'portal'),
        workbench_js_gzip_kb: areaJsGzipKb(dist, 'workbench'),
        examiner_js_gzip_kb: areaJsGzipKb(dist, 'examiner'),
      };
      log(`web: portal ${results.web.portal_js_gzip_kb} KB gzipped JavaScript`);
    }
    // The audit scenario waits for the background verifier's pass over each seeded batch before it
    // measures. The verifier checks up to the newest checkpoint, and a batch seeded straight into the
    // table gets one only from the checkpoint timer: at the defaults (60 s verifier, 30 s checkpoint)
    // those waits were most of the audit scenario.
    // No readiness grace at the end: nothing balances load here, and 3 s per process is time the quick run lacks.
    stack = await startStack(
      {
        PUBLIC_RATE_LIMIT: '0',
        AUDIT_WATCH_INTERVAL_MS: '1000',
        AUDIT_CHECKPOINT_INTERVAL_MS: '1000',
        SHUTDOWN_GRACE_MS: '0',
        ...processEnv,
      },
      build,
    );
    for (const name of ['gateway', 'claims', 'evidence'] as const) pids[name] = processTree(stack[name].pid()!);
    postgres = await postgresDescription(stack.claimsDatabaseUrl);
    log(`stack up: gateway ${stack.gateway.url}, claims ${stack.claims.url}, evidence ${stack.evidence.url}`);
  } catch (error) {
    fail('stack', error);
  }

  let claims: CreatedClaim[] = [];
  const scenarios: { group: string; scenario: Scenario; needsStack: boolean }[] = [
    { group: 'gateway', scenario: proxyScenario, needsStack: false },
    { group: 'status', scenario: statusScenario(() => claims), needsStack: true },
    { group: 'gateway', scenario: gatewayLatencyScenario(() => claims), needsStack: true },
    // The audit series runs before the intake load, whose claim events would otherwise set its 1× size.
    { group: 'audit', scenario: auditScenario, needsStack: true },
    { group: 'intake', scenario: intakeScenario, needsStack: true },
    { group: 'events', scenario: eventsScenario, needsStack: true },
    { group: 'upload', scenario: uploadScenario, needsStack: true },
    // Before search, so its list/search requests see the table the intakes made, not 100,000 seeded claims.
    { group: 'mixed', scenario: mixedScenario(() => claims), needsStack: true },
    { group: 'binder', scenario: binderScenario, needsStack: true },
    { group: 'financials', scenario: financialsScenario, needsStack: true },
    // Two claims processes of its own (encryption on, off) on databases of their own; events to the stack's evidence.
    { group: 'privacy', scenario: privacyScenario, needsStack: true },
    // Last: it grows the claims table to 100,000 rows, which would change the intake series' sizes.
    { group: 'search', scenario: searchScenario, needsStack: true },
  ];
  const context: BenchContext = { params, load, stack: stack!, build: build!, workDir, processEnv, processes: pids, shared: {}, log };
  for (const { scenario } of scenarios) {
    results[scenario.name] ??= {};
    for (const key of scenario.keys) results[scenario.name][key] ??= null;
  }
  for (const { group, scenario, needsStack } of scenarios) {
    if (!wants(group)) continue;
    if (needsStack && !stack) continue;
    if (scenario === proxyScenario && !nginxReady) continue;
    const label = `${scenario.name}:${scenario.keys.join(',')}`;
    log(`${label} …`);
    const t0 = Date.now();
    try {
      if (needsStack && claims.length === 0) claims = await reportLosses(stack!.claims.url, quick ? 50 : 300);
      Object.assign(results[scenario.name], await scenario.run(context));
      log(
        `${label} done in ${((Date.now() - t0) / 1000).toFixed(0)} s: ${scenario.keys.map((k) => `${k}=${results[scenario.name][k]}`).join(' ')}`,
      );
    } catch (error) {
      results[scenario.name].error = error instanceof Error ? error.message.slice(0, 500) : String(error);
      const gone = stack ? (['gateway', 'claims', 'evidence'] as const).filter((name) => !existsSync(`/proc/${stack![name].pid()}`)) : [];
      fail(
        label,
        gone.length
          ? new Error(
              `${(error as Error).message} — the ${gone.join(' and ')} process exited meanwhile:\n${gone.map((name) => stack![name].output().slice(-1500)).join('\n')}`,
            )
          : error,
      );
    }
  }

  load.close();
  if (stack) {
    const t0 = Date.now();
    await stack.stop().catch((error) => fail('stack stop', error));
    log(`stack stopped in ${Date.now() - t0} ms`);
    const env = stack.env;
    await deleteTopology([env.CLAIMS_EXCHANGE, env.EVIDENCE_EXCHANGE], [env.CLAIM_EVENTS_QUEUE, `${env.CLAIM_EVENTS_QUEUE}.dlq`]).catch(
      () => undefined,
    );
  }
  if (profile) {
    for (const file of readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile'))) {
      const pid = Number(/cpu-(\d+)\.cpuprofile/.exec(file)?.[1]);
      const owner = Object.entries(pids).find(([, tree]) => tree.includes(pid))?.[0] ?? 'other';
      const summary = summariseCpuProfile(path.join(profileDir, file));
      writeFileSync(path.join(profileDir, `${owner}-${pid}.txt`), summary);
      log(`profile of ${owner} (pid ${pid}): ${path.relative(process.cwd(), path.join(profileDir, `${owner}-${pid}.txt`))}`);
    }
  }

  const targets = evaluateTargets(results);
  const document = {
    generated_at: new Date().toISOString(),
    mode: params.mode,
    duration_s: Math.round((Date.now() - started) / 1000),
    machine: machine(postgres),
    parameters: params,
    ...results,
    targets,
    errors,
  };
  writeFileSync(out, `${JSON.stringify(document, null, 2)}\n`);
  log(`wrote ${path.relative(process.cwd(), out)} in ${document.duration_s} s`);
  for (const { key } of TARGETS) {
    const target = targets[key];
    log(`  ${target.met ? 'met   ' : 'MISSED'} ${key} = ${target.value} (target ${target.target})`);
  }
  return errors.length > 0 ? 1 : 0;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
