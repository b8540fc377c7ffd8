import { bearer } from '@platform/testing';
import type { BenchContext, Scenario } from '../harness/context';
import { countRows, seedClaims } from '../harness/seed-claims';
import { round } from '../harness/stats';

/**
 * search.p99_ms_at_100k: `GET /api/claims/claims?q=` at the claims service with the claims table grown
 * to 100,000 rows (the --quick smoke run: 5,000; `claims_in_table` says what it was — after the intake
 * series the table may hold more). Sequential requests, one at a time, a mix of what adjusters type:
 * claim numbers, policy numbers, misspelt and partial names, emails and phone numbers of seeded claims.
 */
export const searchScenario: Scenario = {
  name: 'search',
  keys: ['p99_ms_at_100k'],
  async run(context: BenchContext) {
    const { params, stack, log } = context;
    const target = params.mode === 'quick' ? 5000 : 100000;
    const inTable = await countRows(stack.claimsDatabaseUrl, 'claims');
    if (inTable < target) await seedClaims(stack.claimsDatabaseUrl, target, log);
    const claims = await countRows(stack.claimsDatabaseUrl, 'claims');
    const seeded = Math.min(target, claims);
    const authorization = await bearer('claims:read', 'bench-adjuster');
    const queries = (i: number): string => {
      const n = 1 + ((i * 7919) % seeded);
      switch (i % 6) {
        case 0: return `CLM-2019-${String(n).padStart(7, '0')}`;
        case 1: return `POL-${String(100000 + (n % 899999)).padStart(6, '0')}`;
        case 2: return `Seeded Claimnt ${n}`;
        case 3: return `claimant${n}@example`;
        case 4: return `+1 415 555 ${String(n % 10000).padStart(4, '0')}`;
        default: return `Claimant ${n}`;
      }
    };
    const count = params.mode === 'quick' ? 120 : 600;
    const search = async (q: string) => {
      const started = process.hrtime.bigint();
      const response = await fetch(`${stack.claims.url}/api/claims/claims?q=${encodeURIComponent(q)}&limit=25`, { headers: { authorization } });
      const body = (await response.json()) as { items?: unknown[] };
      if (response.status !== 200) throw new Error(`search for ${q} answered ${response.status}: ${JSON.stringify(body)}`);
      return { ms: Number(process.hrtime.bigint() - started) / 1e6, found: body.items?.length ?? 0 };
    };
    for (let i = 0; i < 30; i += 1) await search(queries(count + i)); // warm-up
    const results: { ms: number; found: number }[] = [];
    for (let i = 0; i < count; i += 1) results.push(await search(queries(i)));
    const sorted = results.map((r) => r.ms).sort((a, b) => a - b);
    const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
    return {
      p99_ms_at_100k: round(at(99)),
      p50_ms: round(at(50)),
      max_ms: round(sorted[sorted.length - 1]),
      claims_in_table: claims,
      requests: count,
      requests_finding_nothing: results.filter((r) => r.found === 0).length,
    };
  },
};
