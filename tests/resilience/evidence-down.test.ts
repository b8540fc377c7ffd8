import { peekQueue } from '@platform/testing';
import { pendingOutbox, settleAuditLog } from './support/audit';
import { describeRecords, startLoad } from './support/load-runner';
import { killHard } from './support/kill';
import { writeReliability } from './support/report';
import { writeFigures } from './support/results';
import { halfOfSaturation } from './support/saturation';
import { sleep, startScenarioStack, type ScenarioStack } from './support/stack';

const DOWN_MS = 10000;

describe('evidence service down', () => {
  let stack: ScenarioStack | undefined;

  beforeAll(async () => {
    stack = await startScenarioStack('evidence-down');
  });

  afterAll(async () => {
    await stack?.cleanup();
    writeReliability();
  });

  it('when the evidence process is SIGKILLed while claims keep arriving, the backlog drains after restart and each event is recorded exactly once', async () => {
    const started = Date.now();
    const mix = { target: stack!.gateway.url, mode: 'intake' } as const;
    const { rate, describe } = await halfOfSaturation(mix, stack!);
    const load = startLoad({ ...mix, rate, maxRequests: rate * 40, maxSeconds: 24 });
    await load.running();
    await sleep(5000);
    const killedAt = Date.now();
    await killHard(stack!.evidence);
    await sleep(DOWN_MS);
    await stack!.evidence.start();
    const downMs = Date.now() - killedAt;

    const records = await load.finished();
    const intakes = records.filter((r) => r.op === 'intake');
    const notCreated = intakes.filter((r) => r.status !== 201);
    const claimIds = intakes.filter((r) => r.claim_id).map((r) => r.claim_id!);
    const { lost, duplicated, waitedMs } = await settleAuditLog(stack!.evidenceDatabaseUrl, claimIds);
    const pending = await pendingOutbox(stack!.claimsDatabaseUrl);
    const deadLettered = await peekQueue(`${stack!.env.CLAIM_EVENTS_QUEUE}.dlq`);

    writeFigures({
      scenario: 'evidence-down',
      title: 'Evidence service down',
      load: `${intakes.length} intake requests through the gateway at ${rate}/s`,
      rate: describe,
      faults: `evidence process SIGKILLed, down ${(downMs / 1000).toFixed(1)} s, restarted`,
      badInputsTried: 0,
      recordsLost: lost.length,
      duplicatesApplied: duplicated.length,
      unexpectedStatuses: notCreated.length + deadLettered.length,
      durationSeconds: (Date.now() - started) / 1000,
      notes: [
        `backlog drained ${(waitedMs / 1000).toFixed(1)} s after the load ended; dead-lettered: ${deadLettered.length}; outbox pending: ${pending}`,
      ],
    });

    expect(describeRecords(notCreated)).toBe('');
    expect(lost).toEqual([]);
    expect(duplicated).toEqual([]);
    expect(deadLettered).toEqual([]);
    expect(pending).toBe(0);
  });
});
