import { bearer } from '@platform/testing';
import { reportLoss } from '../harness/claimant';
import type { BenchContext, Scenario } from '../harness/context';
import { percentile, round } from '../harness/stats';
import { pgClient } from '../harness/workspace-modules';

const PAYMENTS = 10000;
const STATUSES = ['approved', 'approved', 'awaiting_approval', 'rejected', 'voided'];

/**
 * financials.p99_ms_at_10k_payments: `GET /api/claims/claims/{id}/financials` at the claims service for one
 * claim holding 10,000 payments (both categories, every status; seeded in SQL behind a reserve set through
 * the API) — the reserve position an adjuster and an approver read. Sequential requests, one at a time.
 */
export const financialsScenario: Scenario = {
  name: 'financials',
  keys: ['p99_ms_at_10k_payments'],
  async run(context: BenchContext) {
    const { params, stack } = context;
    const { claim_id: claimId } = await reportLoss(stack.claims.url);
    const writer = await bearer('claims:read claims:write', 'bench-adjuster');
    for (const category of ['indemnity', 'expense']) {
      const response = await fetch(`${stack.claims.url}/api/claims/claims/${claimId}/reserves`, {
        method: 'POST',
        headers: { authorization: writer, 'content-type': 'application/json' },
        body: JSON.stringify({ cost_category: category, amount: { amount: '99999999.99', currency: 'USD' }, reason: 'bench' }),
      });
      if (response.status !== 201) throw new Error(`setting the ${category} reserve answered ${response.status}`);
    }
    const client = pgClient(stack.claimsDatabaseUrl);
    await client.connect();
    try {
      await client.query(
        `INSERT INTO payments (id, claim_id, cost_category, amount, currency, payee_name, payee_kind, method, memo, status,
                               authority_limit, requested_by)
         SELECT gen_random_uuid(), $1, CASE WHEN i % 3 = 0 THEN 'expense' ELSE 'indemnity' END, ((1 + i % 997) || '.' || lpad((i % 100)::text, 2, '0'))::numeric,
                'USD', 'Payee ' || i, 'vendor', 'eft', 'bench', ($2::text[])[1 + i % ${STATUSES.length}], '5000.00', 'bench-adjuster'
         FROM generate_series(1, ${PAYMENTS}) AS i`,
        [claimId, STATUSES],
      );
    } finally {
      await client.end();
    }
    const reader = await bearer('claims:read', 'bench-reader');
    const read = async () => {
      const started = process.hrtime.bigint();
      const response = await fetch(`${stack.claims.url}/api/claims/claims/${claimId}/financials`, { headers: { authorization: reader } });
      const body = await response.json();
      if (response.status !== 200) throw new Error(`the financials read answered ${response.status}: ${JSON.stringify(body)}`);
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const count = params.mode === 'quick' ? 120 : 600;
    for (let i = 0; i < 30; i += 1) await read(); // warm-up
    const times: number[] = [];
    for (let i = 0; i < count; i += 1) times.push(await read());
    return {
      p99_ms_at_10k_payments: round(percentile(times, 99)),
      p50_ms: round(percentile(times, 50)),
      max_ms: round(Math.max(...times)),
      payments_on_claim: PAYMENTS,
      requests: count,
    };
  },
};
