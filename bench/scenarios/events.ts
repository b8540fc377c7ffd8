import { intakeRequest } from '../harness/claimant';
import { claimToAudit, claimsClock, eventsDrained } from '../harness/claim-to-audit';
import type { BenchContext, Scenario } from '../harness/context';
import { round } from '../harness/stats';

/**
 * events.end_to_end_p50_ms / _p99_ms: from a claim committed at the claims service to its
 * `claim.created` record in the evidence audit log (harness/claim-to-audit.ts), under intake load (open
 * loop at half the intake saturation measured before), for every claim of the load window. Starts once
 * the events earlier scenarios left are all in the audit log.
 */
export const eventsScenario: Scenario = {
  name: 'events',
  keys: ['end_to_end_p50_ms', 'end_to_end_p99_ms'],
  async run(context: BenchContext) {
    const { params, load, stack } = context;
    const rate = Math.max(10, Math.floor((context.shared.intakeRps ?? 100) / 2));
    const intakeLoad = (durationSec: number) =>
      load.run({
        kind: 'openloop',
        url: stack.claims.url,
        rate,
        connections: params.intakeConcurrency * 2,
        durationSec,
        requests: [intakeRequest()],
      });
    const drained = await eventsDrained(stack);
    await intakeLoad(params.warmupSec);
    const t0 = await claimsClock(stack);
    const result = await intakeLoad(params.eventsSec);
    if (result.non2xx + result.errors > 0) throw new Error(`intake under event load: ${result.non2xx + result.errors} requests failed`);
    const { p50_ms, p99_ms, max_ms, ...split } = await claimToAudit(stack, t0);
    return {
      end_to_end_p50_ms: p50_ms,
      end_to_end_p99_ms: p99_ms,
      end_to_end_max_ms: max_ms,
      ...split,
      intake_rate_rps: rate,
      backlog_drained_first: drained,
      intake_p99_ms: round(result.p99_ms, 1),
    };
  },
};
