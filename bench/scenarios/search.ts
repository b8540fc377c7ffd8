import { bearer } from '@platform/testing';
import type { BenchContext, Scenario } from '../harness/context';
import { cpuSeconds } from '../harness/process-tree';
import { countRows, seedClaims, seededClaimant } from '../harness/seed-claims';
import { round } from '../harness/stats';
import { pgClient } from '../harness/workspace-modules';

/** The PostgreSQL backends serving the claims database (the service's pooled connections), by pid. */
async function claimsBackends(databaseUrl: string): Promise<number[]> {
  const client = pgClient(databaseUrl);
  await client.connect();
  try {
    const { rows } = await client.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
    return rows.map((row) => Number(row.pid));
  } finally {
    await client.end();
  }
}

/** CPU seconds each backend has used so far. */
const backendsCpu = async (databaseUrl: string) => new Map((await claimsBackends(databaseUrl)).map((pid) => [pid, cpuSeconds(pid)]));

/** CPU the backends used since `before`: those open then, and those opened since (all of theirs); one gone since (0 now) is left out. */
function backendsCpuSince(before: Map<number, number>, now: Map<number, number>): number {
  let seconds = 0;
  for (const [pid, cpu] of now) seconds += cpu - (before.get(pid) ?? 0);
  return seconds;
}

/**
 * search.p99_ms_at_100k: `GET /api/claims/claims?q=` at the claims service with the claims table grown
 * to 100,000 rows (the --quick smoke run: 5,000; `claims_in_table` says what it was — after the intake
 * series the table may hold more). Sequential requests, one at a time, a mix of what adjusters type:
 * claim numbers, policy numbers, misspelt and partial names, the start of emails and local phone numbers
 * of seeded claims (varied claimants: seededClaimant).
 */
export const searchScenario: Scenario = {
  name: 'search',
  keys: ['p99_ms_at_100k'],
  async run(context: BenchContext) {
    const { params, stack, log } = context;
    const target = params.mode === 'quick' ? 5000 : 100000;
    const inTable = await countRows(stack.claimsDatabaseUrl, 'claims');
    const seedStarted = Date.now();
    if (inTable < target) await seedClaims(stack.claimsDatabaseUrl, stack.env.DATA_DIR, target, log);
    const seedSeconds = (Date.now() - seedStarted) / 1000;
    const claims = await countRows(stack.claimsDatabaseUrl, 'claims');
    const seeded = Math.min(target, claims);
    const authorization = await bearer('claims:read', 'bench-adjuster');
    const queries = (i: number): string => {
      const n = 1 + ((i * 7919) % seeded);
      const claimant = seededClaimant(n);
      const [first, last] = claimant.name.split(' ');
      switch (i % 6) {
        case 0:
          return `CLM-2019-${String(n).padStart(7, '0')}`;
        case 1:
          return `POL-${String(100000 + (n % 899999)).padStart(6, '0')}`;
        case 2:
          return `${first} ${last.slice(0, -2)}${last.slice(-1)}`; // a letter missing
        case 3:
          return claimant.email.slice(0, claimant.email.indexOf('@') + 4);
        case 4:
          return `(${claimant.phone.slice(2, 5)}) ${claimant.phone.slice(5, 8)}-${claimant.phone.slice(8)}`; // no country code
        default:
          return `${first} ${last.slice(0, 4)}`; // a partial word
      }
    };
    const count = params.mode === 'quick' ? 120 : 600;
    const search = async (q: string) => {
      const started = process.hrtime.bigint();
      const response = await fetch(`${stack.claims.url}/api/claims/claims?q=${encodeURIComponent(q)}&limit=25`, {
        headers: { authorization },
      });
      const body = (await response.json()) as { items?: unknown[] };
      if (response.status !== 200) throw new Error(`search for ${q} answered ${response.status}: ${JSON.stringify(body)}`);
      return { ms: Number(process.hrtime.bigint() - started) / 1e6, found: body.items?.length ?? 0 };
    };
    for (let i = 0; i < 30; i += 1) await search(queries(count + i)); // warm-up
    // CPU per search, which does not depend on what else runs: the claims process and its PostgreSQL backends
    const claimsPid = stack.claims.pid()!;
    const cpuBefore = { claims: cpuSeconds(claimsPid), postgres: await backendsCpu(stack.claimsDatabaseUrl) };
    const results: { ms: number; found: number }[] = [];
    for (let i = 0; i < count; i += 1) results.push(await search(queries(i)));
    const claimsCpu = cpuSeconds(claimsPid) - cpuBefore.claims;
    const postgresCpu = backendsCpuSince(cpuBefore.postgres, await backendsCpu(stack.claimsDatabaseUrl));
    const sorted = results.map((r) => r.ms).sort((a, b) => a - b);
    const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
    return {
      p99_ms_at_100k: round(at(99)),
      p50_ms: round(at(50)),
      max_ms: round(sorted[sorted.length - 1]),
      claims_in_table: claims,
      requests: count,
      requests_finding_nothing: results.filter((r) => r.found === 0).length,
      claims_cpu_ms_per_search: round((1000 * claimsCpu) / count),
      postgres_cpu_ms_per_search: round((1000 * postgresCpu) / count),
      seed_s: round(seedSeconds, 1),
    };
  },
};
