import { bearer } from '@platform/testing';
import { auditRecordsViaApi, pendingOutbox, settleAuditLog } from './support/audit';
import { brokerFault, type BrokerFault } from './support/broker-fault';
import { describeRecords, startLoad } from './support/load-runner';
import { writeReliability } from './support/report';
import { writeFigures } from './support/results';
import { metricValue, scrape } from './support/metrics';
import { halfOfSaturation } from './support/saturation';
import { sleep, startScenarioStack, until, type ScenarioStack } from './support/stack';

const OUTAGE_MS = 12000;

describe('broker outage', () => {
  let fault: BrokerFault;
  let stack: ScenarioStack | undefined;

  beforeAll(async () => {
    fault = await brokerFault();
    stack = await startScenarioStack('broker-outage', { AMQP_URL: fault.amqpUrl });
  });

  afterAll(async () => {
    await fault?.close();
    await stack?.cleanup();
    writeReliability();
  });

  it('when the broker is away for 12 s, intake keeps answering 201 and every claim.created reaches the audit log exactly once', async () => {
    const started = Date.now();
    const mix = { target: stack!.gateway.url, mode: 'intake' } as const;
    const { rate, describe } = await halfOfSaturation(mix, stack!);
    const loadStarted = Date.now();
    const load = startLoad({ ...mix, rate, maxRequests: rate * 40, maxSeconds: 26 });
    await load.running();
    await sleep(5000);
    let outageMs = 0;
    const readyDuringOutage: number[] = [];
    try {
      const down = Date.now();
      await fault.takeAway();
      // the stack notices in its metrics, not its readiness: the outbox holds the events, the pods stay in service
      await until(
        'claims service reports the broker unreachable',
        async () => metricValue(await scrape(stack!.claims.url), 'broker_connection_up') === 0,
        OUTAGE_MS,
      );
      for (const process of [stack!.claims, stack!.gateway]) readyDuringOutage.push((await fetch(`${process.url}/readyz`)).status);
      await sleep(Math.max(0, OUTAGE_MS - (Date.now() - down)));
      outageMs = Date.now() - down;
    } finally {
      await fault.bringBack();
    }
    const records = await load.finished();
    const intakes = records.filter((r) => r.op === 'intake');
    const notCreated = intakes.filter((r) => r.status !== 201);
    const claimIds = intakes.filter((r) => r.claim_id).map((r) => r.claim_id!);

    const { lost, duplicated, waitedMs } = await settleAuditLog(stack!.evidenceDatabaseUrl, claimIds);
    const pending = await pendingOutbox(stack!.claimsDatabaseUrl);
    const reader = await bearer('audit:read', 'resilience-auditor');
    const sample = await Promise.all(claimIds.slice(0, 5).map((id) => auditRecordsViaApi(stack!.gateway.url, reader, id)));
    const apiMismatches = sample.filter(
      (page) => page.status !== 200 || page.items.filter((item) => item.action === 'claim.created').length !== 1,
    ).length;

    writeFigures({
      scenario: 'broker-outage',
      title: 'Broker outage',
      load: `${intakes.length} intake requests through the gateway at ${rate}/s over ${((Date.now() - loadStarted) / 1000).toFixed(0)} s`,
      rate: describe,
      faults: `broker unreachable for ${(outageMs / 1000).toFixed(1)} s (${fault.method})`,
      badInputsTried: 0,
      recordsLost: lost.length,
      duplicatesApplied: duplicated.length,
      unexpectedStatuses: notCreated.length + apiMismatches,
      durationSeconds: (Date.now() - started) / 1000,
      notes: [
        `backlog drained into the audit log ${(waitedMs / 1000).toFixed(1)} s after the load ended; outbox rows still pending: ${pending}`,
        `records API cross-check on ${sample.length} claims: ${apiMismatches} mismatches`,
        `/readyz during the outage (claims, gateway): ${readyDuringOutage.join(', ')}; broker_connection_up 0`,
      ],
    });

    expect(readyDuringOutage).toEqual([200, 200]);
    expect(describeRecords(notCreated)).toBe('');
    expect(intakes.length).toBeGreaterThan(rate * 15);
    expect(lost).toEqual([]);
    expect(duplicated).toEqual([]);
    expect(pending).toBe(0);
    expect(apiMismatches).toBe(0);
  });
});
