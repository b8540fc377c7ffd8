import http from 'node:http';
import { pendingOutbox, settleAuditLog } from './support/audit';
import { describeRecords, startLoad } from './support/load-runner';
import { writeReliability } from './support/report';
import { writeFigures } from './support/results';
import { halfOfSaturation } from './support/saturation';
import { sleep, startScenarioStack, until, type ScenarioStack } from './support/stack';

/** In-flight requests take well under a second here; draining must not need the 25 s force-exit. */
const DRAIN_WITHIN_MS = 15000;

interface ReadyObservation {
  at: number;
  status?: number;
  error?: string;
}

/** Polls /readyz every 100 ms on one kept-alive connection (as a load balancer's health check does). */
function pollReadiness(url: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const observations: ReadyObservation[] = [];
  let running = true;
  const once = () =>
    new Promise<ReadyObservation>((resolve) => {
      const request = http.get(`${url}/readyz`, { agent, timeout: 5000 }, (response) => {
        response.resume();
        response.on('end', () => resolve({ at: Date.now(), status: response.statusCode }));
      });
      request.on('timeout', () => request.destroy(new Error('timeout')));
      request.on('error', (error: NodeJS.ErrnoException) => resolve({ at: Date.now(), error: error.code ?? error.message }));
    });
  const loop = (async () => {
    while (running) {
      const observation = await once();
      observations.push(observation);
      await sleep(100);
    }
  })();
  return {
    observations,
    async stop() {
      running = false;
      await loop;
      agent.destroy();
    },
  };
}

describe('graceful shutdown', () => {
  let stack: ScenarioStack | undefined;

  beforeAll(async () => {
    stack = await startScenarioStack('graceful-shutdown');
  });

  afterAll(async () => {
    await stack?.cleanup();
    writeReliability();
  });

  it('on SIGTERM under load, /readyz turns 503 first, accepted requests complete, the process exits 0 and no event is lost', async () => {
    const started = Date.now();
    const mix = { target: stack!.claims.url, mode: 'intake+upload', requestTimeoutMs: 20000 } as const;
    const { rate, describe } = await halfOfSaturation(mix, stack!);
    // the load goes on for 30 s after the signal, on kept-alive connections, as traffic from the gateway would
    const load = startLoad({ ...mix, rate, maxRequests: rate * 40, maxSeconds: 34 });
    const readiness = pollReadiness(stack!.claims.url);
    await load.running();
    await sleep(4000);
    const signalledAt = Date.now();
    const exitCode = await stack!.claims.signal('SIGTERM');
    const exitedAt = Date.now();
    const drainedInTime = exitedAt - signalledAt < DRAIN_WITHIN_MS;
    await sleep(500);
    await readiness.stop();
    const records = await load.finished();

    // Readiness after the signal: 503 before the listener goes away, and never 200 again once it said 503.
    const after = readiness.observations.filter((o) => o.at >= signalledAt);
    const first503 = after.findIndex((o) => o.status === 503);
    const firstFailure = after.findIndex((o) => o.status !== 200);
    const turned503First = first503 >= 0 && first503 === firstFailure;
    const readyAgain = first503 >= 0 && after.slice(first503).some((o) => o.status === 200);

    // Requests accepted before the signal complete with a response; resets are failures.
    const acceptedBefore = records.filter((r) => r.started < signalledAt - 50);
    const cutOff = acceptedBefore.filter((r) => r.status === undefined || r.status >= 500);
    const afterSignal = records.filter((r) => r.started >= signalledAt - 50);
    const wrongAfter = afterSignal.filter((r) => r.status !== undefined && r.status >= 500 && r.status !== 503);

    // No event lost: every created claim is in the audit log once (the relay's leftovers go out after restart).
    await stack!.claims.start();
    await until('outbox drained after restart', async () => (await pendingOutbox(stack!.claimsDatabaseUrl)) === 0, 60000).catch(
      () => undefined,
    );
    const pending = await pendingOutbox(stack!.claimsDatabaseUrl);
    const createdIds = records.filter((r) => r.op === 'intake' && r.status === 201).map((r) => r.claim_id!);
    const audit = await settleAuditLog(stack!.evidenceDatabaseUrl, createdIds);

    writeFigures({
      scenario: 'graceful-shutdown',
      title: 'Graceful shutdown (SIGTERM)',
      load: `${records.length} intake + upload requests directly at the claims service at ${rate}/s on kept-alive connections, for 30 s after the signal; /readyz polled every 100 ms`,
      rate: describe,
      faults: `SIGTERM under load; drained and exited in ${exitedAt - signalledAt} ms with code ${exitCode}`,
      badInputsTried: 0,
      recordsLost: audit.lost.length + pending,
      duplicatesApplied: audit.duplicated.length,
      unexpectedStatuses:
        cutOff.length +
        wrongAfter.length +
        (acceptedBefore.length > 0 ? 0 : 1) +
        (exitCode === 0 ? 0 : 1) +
        (drainedInTime ? 0 : 1) +
        (turned503First ? 0 : 1) +
        (readyAgain ? 1 : 0),
      durationSeconds: (Date.now() - started) / 1000,
      notes: [
        `${acceptedBefore.length} requests accepted before the signal, ${cutOff.length} of them cut off; readiness after the signal: ${after
          .slice(0, 12)
          .map((o) => o.status ?? o.error)
          .join(' → ')}`,
      ],
    });

    expect(exitCode).toBe(0);
    expect(drainedInTime).toBe(true);
    expect(turned503First).toBe(true);
    expect(readyAgain).toBe(false);
    expect(acceptedBefore.length).toBeGreaterThan(0);
    expect(describeRecords(cutOff, 20)).toBe('');
    expect(describeRecords(wrongAfter, 20)).toBe('');
    expect(audit.lost).toEqual([]);
    expect(audit.duplicated).toEqual([]);
    expect(pending).toBe(0);
  });
});
