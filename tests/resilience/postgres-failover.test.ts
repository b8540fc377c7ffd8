import { bearer, createEmptyDatabase, TEST_JWT_SECRET } from '@platform/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runStandaloneWitness } from '../../packages/witness/src';
import { pendingOutbox, settleAuditLog } from './support/audit';
import { queryRows } from './support/database';
import { describeStatuses, startLoad } from './support/load-runner';
import { startPostgresPair, type PostgresPair } from './support/postgres-pair';
import { writeReliability } from './support/report';
import { writeFigures } from './support/results';
import { halfOfSaturation } from './support/saturation';
import { readiness, sleep, startScenarioStack, until, type ScenarioStack } from './support/stack';

/** How long the primary is gone before the standby is promoted (an operator's or CloudNativePG's reaction time). */
const GAP_MS = 4000;

interface Failover {
  pair: PostgresPair;
  stack: ScenarioStack;
}

async function startFailover(scenario: string, synchronous: boolean): Promise<Failover> {
  const pair = await startPostgresPair({ synchronous });
  try {
    await pair.createDatabase('claims');
    await pair.createDatabase('evidence');
    const stack = await startScenarioStack(scenario, {
      CLAIMS_DATABASE_URL: pair.urlFor('claims'),
      EVIDENCE_DATABASE_URL: pair.urlFor('evidence'),
      // a sweep a second, so its resumption after the failover shows within the scenario
      OVERDUE_SWEEP_INTERVAL_MS: '1000',
    });
    return { pair, stack };
  } catch (error) {
    await pair.stop();
    throw error;
  }
}

/** Runs intake load through the gateway, kills the primary after 5 s, promotes the standby GAP_MS later. */
async function loseThePrimary({ pair, stack }: Failover, beforeKill: () => Promise<void> = async () => undefined) {
  const claimsDb = () => pair.primaryUrlFor('claims');
  const evidenceDb = () => pair.primaryUrlFor('evidence');
  const mix = { target: stack.gateway.url, mode: 'intake' } as const;
  const { rate, describe } = await halfOfSaturation(mix, { claimsDatabaseUrl: claimsDb(), evidenceDatabaseUrl: evidenceDb() });
  const load = startLoad({ ...mix, rate, maxRequests: rate * 40, maxSeconds: 25 });
  await load.running();
  await sleep(5000);

  const readinessSeen: (number | string)[] = [];
  let watching = true;
  const watchReadiness = (async () => {
    while (watching) {
      readinessSeen.push(await readiness(stack.claims.url));
      await sleep(250);
    }
  })();
  await beforeKill();
  const killedAt = Date.now();
  pair.killPrimary();
  await sleep(GAP_MS);
  await pair.promoteStandby();
  const promotedAt = Date.now();
  await until('claims readiness back at 200 on the promoted standby', async () => (await readiness(stack.claims.url)) === 200, 60000);
  watching = false;
  await watchReadiness;

  const records = await load.finished();
  const intakes = records.filter((r) => r.op === 'intake');
  const acknowledged = intakes.filter((r) => r.status === 201 && r.claim_id).map((r) => r.claim_id!);
  const firstAfter = intakes.filter((r) => r.started >= killedAt && r.status === 201).sort((a, b) => a.ended - b.ended)[0];
  const present = new Set(
    (await queryRows<{ id: string }>(claimsDb(), 'SELECT id FROM claims WHERE id = ANY($1::uuid[])', [acknowledged])).map((row) => row.id),
  );
  return {
    rate,
    describe,
    intakes,
    acknowledged,
    missing: acknowledged.filter((id) => !present.has(id)),
    unexpected: intakes.filter((r) => r.status !== 201 && r.status !== 503),
    readinessSeen,
    killedAt,
    promotedAt,
    unavailableMs: firstAfter ? firstAfter.ended - killedAt : undefined,
    claimsDb,
    evidenceDb,
  };
}

describe('a PostgreSQL primary lost under load, with a synchronous standby', () => {
  let failover: Failover | undefined;

  beforeAll(async () => {
    failover = await startFailover('postgres-failover', true);
  });

  afterAll(async () => {
    await failover?.stack.cleanup();
    await failover?.pair.stop();
    writeReliability();
  });

  it('every intake answered 201 is on the promoted standby; relay, consumer, deadline sweep, checkpoint signer and witness resume without a restart; readiness goes 503 and back', async () => {
    const started = Date.now();
    const { stack } = failover!;
    // a witness (its own database, not the one that fails) cosigning the evidence log throughout
    const reader = await bearer('audit:read', 'failover-reader');
    const logKey = (await fetch(`${stack.evidence.url}/api/evidence/audit/public-key`, { headers: { authorization: reader } })).headers.get(
      'x-audit-verifier-key',
    )!;
    const witnessDb = await createEmptyDatabase('failover_witness');
    const witnessData = mkdtempSync(path.join(tmpdir(), 'failover-witness-'));
    const witness = await runStandaloneWitness({
      PORT: '0',
      DATABASE_URL: witnessDb.url,
      DATA_DIR: witnessData,
      LOG_LEVEL: 'error',
      WITNESS_EVIDENCE_URL: stack.evidence.url,
      WITNESS_LOG_VERIFIER_KEY: logKey,
      WITNESS_LOG_JWT_SECRET: TEST_JWT_SECRET,
      WITNESS_POLL_INTERVAL_MS: '250',
    });
    const cosigned = async () =>
      ((await (await fetch(`${witness.url}/state`)).json()) as { cosigned?: { size: number } }).cosigned?.size ?? 0;
    let run: Awaited<ReturnType<typeof loseThePrimary>>;
    let cosignedAfter = 0;
    let cosignedAtKill = 0;
    try {
      run = await loseThePrimary(failover!, async () => void (cosignedAtKill = await cosigned()));
      await until(
        'the witness cosigns the log grown on the promoted standby',
        async () => (cosignedAfter = await cosigned()) > cosignedAtKill,
        60000,
      );
    } finally {
      await witness.close();
      await witnessDb.drop();
      rmSync(witnessData, { recursive: true, force: true });
    }
    const { lost, duplicated, waitedMs } = await settleAuditLog(run.evidenceDb(), run.acknowledged);
    const pending = await pendingOutbox(run.claimsDb());
    const signedSince = async () =>
      (
        await queryRows<{ n: string }>(run.evidenceDb(), 'SELECT count(*) AS n FROM audit_checkpoints WHERE signed_at > $1', [
          new Date(run.promotedAt).toISOString(),
        ])
      )[0].n;
    await until('a checkpoint signed on the promoted standby', async () => Number(await signedSince()) > 0, 60000);
    const sweptAt = async () => {
      const text = await (await fetch(`${stack.claims.url}/metrics`)).text();
      return Number(/^periodic_task_last_success_timestamp_seconds\{[^}]*task="deadline-sweep"[^}]*\} (\S+)$/m.exec(text)?.[1] ?? 0) * 1000;
    };
    await until('the deadline sweep passes again on the promoted standby', async () => (await sweptAt()) > run.promotedAt, 60000);

    writeFigures({
      scenario: 'postgres-failover',
      title: 'PostgreSQL primary lost (synchronous standby)',
      load: `${run.intakes.length} intake requests through the gateway at ${run.rate}/s`,
      rate: run.describe,
      faults: `SIGKILL of the primary postmaster (both services' databases), the standby promoted ${GAP_MS / 1000} s later and the endpoint (the -rw Service's stand-in) pointed at it`,
      badInputsTried: 0,
      recordsLost: run.missing.length + lost.length,
      duplicatesApplied: duplicated.length,
      unexpectedStatuses: run.unexpected.length,
      durationSeconds: (Date.now() - started) / 1000,
      notes: [
        `intake unavailable ${run.unavailableMs === undefined ? 'until the end of the load' : `${(run.unavailableMs / 1000).toFixed(1)} s`} from the kill to the first 201 (503 problem+json meanwhile: ${describeStatuses(run.intakes.filter((r) => r.status !== 201))})`,
        `the witness had cosigned ${cosignedAtKill} records at the kill and cosigned ${cosignedAfter} after the promotion, without a restart`,
        `claims /readyz during the gap: ${[...new Set(run.readinessSeen)].join(', ')}, then 200 once the standby was promoted`,
        `${run.acknowledged.length} intakes acknowledged with 201, ${run.missing.length} of them missing on the promoted standby; backlog drained into the audit log ${(waitedMs / 1000).toFixed(1)} s after the load; outbox rows still pending: ${pending}`,
      ],
    });

    expect(describeStatuses(run.unexpected)).toBe(describeStatuses([]));
    expect(run.missing).toEqual([]);
    expect(run.readinessSeen).toContain(503);
    expect(run.unavailableMs).toBeDefined();
    expect(lost).toEqual([]);
    expect(duplicated).toEqual([]);
    expect(pending).toBe(0);
  });
});

describe('a PostgreSQL primary lost under load, with an asynchronous standby (the trade-off an operator chooses)', () => {
  let failover: Failover | undefined;

  beforeAll(async () => {
    failover = await startFailover('postgres-failover-async', false);
  });

  afterAll(async () => {
    await failover?.stack.cleanup();
    await failover?.pair.stop();
    writeReliability();
  });

  it('reports how many acknowledged intakes the promoted standby never received, and the platform serves again', async () => {
    const started = Date.now();
    const run = await loseThePrimary(failover!);
    writeFigures({
      scenario: 'postgres-failover-async',
      title: 'PostgreSQL primary lost (asynchronous standby)',
      load: `${run.intakes.length} intake requests through the gateway at ${run.rate}/s`,
      rate: run.describe,
      faults: `SIGKILL of the primary postmaster, the asynchronous standby promoted ${GAP_MS / 1000} s later`,
      badInputsTried: 0,
      recordsLost: run.missing.length,
      duplicatesApplied: 0,
      unexpectedStatuses: run.unexpected.length,
      durationSeconds: (Date.now() - started) / 1000,
      notes: [
        `${run.missing.length} of ${run.acknowledged.length} intakes acknowledged with 201 are not on the promoted standby: what an asynchronous standby can lose (the WAL not yet streamed at the kill); a synchronous standby loses none (postgres-failover)`,
      ],
    });
    expect(describeStatuses(run.unexpected)).toBe(describeStatuses([]));
    expect(run.unavailableMs).toBeDefined();
  });
});
