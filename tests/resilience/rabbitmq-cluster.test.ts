import { bearer, createEvidenceRun } from '@platform/testing';
import { auditedClaimEvents } from './support/database';
import { pendingOutbox, settleAuditLog } from './support/audit';
import { describeRecords, startLoad } from './support/load-runner';
import { startRabbitCluster, type RabbitCluster } from './support/rabbit-cluster';
import { writeReliability } from './support/report';
import { writeFigures } from './support/results';
import { halfOfSaturation } from './support/saturation';
import { sleep, startScenarioStack, until, type ScenarioStack } from './support/stack';

const NODE_DOWN_MS = 10000;

describe('a RabbitMQ cluster of three nodes with quorum queues', () => {
  let cluster: RabbitCluster | undefined;
  let stack: ScenarioStack | undefined;

  beforeAll(async () => {
    cluster = await startRabbitCluster(3);
    stack = await startScenarioStack('rabbitmq-cluster', { AMQP_URL: cluster.amqpUrl });
  });

  afterAll(async () => {
    await stack?.cleanup();
    await cluster?.stop();
    writeReliability();
  });

  it('loses the node that leads evidence.claim-events to SIGKILL under load: intake keeps answering 201, and every claim.created reaches the audit log exactly once', async () => {
    const started = Date.now();
    const queue = stack!.env.CLAIM_EVENTS_QUEUE;
    await until(
      'the consumer queue exists on the cluster',
      async () => Boolean(await cluster!.leaderOf(queue).catch(() => undefined)),
      60000,
    );
    const mix = { target: stack!.gateway.url, mode: 'intake' } as const;
    const { rate, describe } = await halfOfSaturation(mix, stack!);
    // evidence writes beside the intake load: each appends to the log and puts an event in the evidence outbox
    const preparer = await bearer('evidence:write', 'cluster-preparer');
    const runId = await createEvidenceRun(stack!.gateway.url, preparer, {
      control: { key: 'CLUSTER-1', title: 'Broker nodes are replaced without losing events' },
      period: { start: '2026-10-01', end: '2026-12-31' },
      notes: [],
    });
    const evidenceStatuses: number[] = [];
    let writingEvidence = true;
    const evidenceLoad = (async () => {
      for (let i = 0; writingEvidence; i++) {
        const response = await fetch(`${stack!.gateway.url}/api/evidence/runs/${runId}/evidence`, {
          method: 'POST',
          headers: { authorization: preparer, 'content-type': 'application/json' },
          body: JSON.stringify({ kind: 'note', title: `Node drill note ${i}` }),
        });
        evidenceStatuses.push(response.status);
        await sleep(100);
      }
    })();
    const loadStarted = Date.now();
    const load = startLoad({ ...mix, rate, maxRequests: rate * 40, maxSeconds: 30 });
    await load.running();
    await sleep(5000);

    const leader = await cluster!.leaderOf(queue);
    const auditedBeforeKill = (await auditedClaimEvents(stack!.evidenceDatabaseUrl)).size;
    const killedAt = Date.now();
    cluster!.kill(leader);
    // Events flow again once a claim.created committed after the kill reaches the audit log.
    let flowingAgainMs: number | undefined;
    const watchFlow = (async () => {
      const before = new Set((await auditedClaimEvents(stack!.evidenceDatabaseUrl)).keys());
      while (flowingAgainMs === undefined && Date.now() - killedAt < 120000) {
        const audited = await auditedClaimEvents(stack!.evidenceDatabaseUrl);
        if ([...audited.keys()].some((id) => !before.has(id))) flowingAgainMs = Date.now() - killedAt;
        else await sleep(200);
      }
    })();
    await sleep(NODE_DOWN_MS);
    await cluster!.restart(leader);
    const newLeader = await cluster!.leaderOf(queue);

    const records = await load.finished();
    writingEvidence = false;
    await evidenceLoad;
    await watchFlow;
    const intakes = records.filter((r) => r.op === 'intake');
    const notCreated = intakes.filter((r) => r.status !== 201);
    const claimIds = intakes.filter((r) => r.claim_id).map((r) => r.claim_id!);
    const { lost, duplicated, waitedMs } = await settleAuditLog(stack!.evidenceDatabaseUrl, claimIds);
    const pending = await pendingOutbox(stack!.claimsDatabaseUrl);
    await until(
      'the evidence outbox drained through the cluster',
      async () => (await pendingOutbox(stack!.evidenceDatabaseUrl)) === 0,
      60000,
    );
    const evidenceRefused = evidenceStatuses.filter((status) => status !== 201);

    writeFigures({
      scenario: 'rabbitmq-cluster',
      title: 'RabbitMQ cluster: the queue leader killed',
      load: `${intakes.length} intake requests through the gateway at ${rate}/s over ${((Date.now() - loadStarted) / 1000).toFixed(0)} s, and ${evidenceStatuses.length} evidence notes (10/s) whose events leave through the evidence outbox`,
      rate: describe,
      faults: `SIGKILL of ${leader.name.split('@')[0]}, the leader of the quorum queue ${queue} (3 nodes, one Erlang cookie, Debian rabbitmq-server), restarted ${NODE_DOWN_MS / 1000} s later; the services are given the three nodes' addresses and fail over between them`,
      badInputsTried: 0,
      recordsLost: lost.length,
      duplicatesApplied: duplicated.length,
      unexpectedStatuses: notCreated.length + evidenceRefused.length,
      durationSeconds: (Date.now() - started) / 1000,
      notes: [
        `events flowed into the audit log again ${flowingAgainMs === undefined ? 'never within 120 s' : `${(flowingAgainMs / 1000).toFixed(1)} s`} after the kill (${auditedBeforeKill} claims audited before it); leader afterwards: ${newLeader.name.split('@')[0]}`,
        `backlog drained into the audit log ${(waitedMs / 1000).toFixed(1)} s after the load ended; outbox rows still pending: ${pending}`,
      ],
    });

    expect(describeRecords(notCreated)).toBe('');
    expect(evidenceRefused).toEqual([]);
    expect(evidenceStatuses.length).toBeGreaterThan(50);
    expect(intakes.length).toBeGreaterThan(rate * 15);
    expect(flowingAgainMs).toBeDefined();
    expect(lost).toEqual([]);
    expect(duplicated).toEqual([]);
    expect(pending).toBe(0);
  });
});
