import { bearer, createEmptyDatabase } from '@platform/testing';
import { pendingOutbox, settleAuditLog } from './support/audit';
import { queryRows } from './support/database';
import { describeRecords, startLoad } from './support/load-runner';
import type { LoadRecord } from './support/load';
import { claimBody } from './support/payloads';
import { writeReliability } from './support/report';
import { writeFigures } from './support/results';
import { halfOfSaturation } from './support/saturation';
import { sleep, startScenarioStack, until, type ScenarioStack } from './support/stack';
import { createTcpProxy, type TcpProxy } from './support/tcp-proxy';

const OUTAGE_MS = 12000;
const ANSWER_WITHIN_MS = 6000;
const RECOVER_WITHIN_MS = 20000;

/** A dependency outage is answered with 503 problem+json and Retry-After, quickly. */
function isProperUnavailable(record: LoadRecord): boolean {
  return (
    record.status === 503 &&
    !!record.retry_after &&
    (record.content_type ?? '').startsWith('application/problem+json') &&
    record.ended - record.started < ANSWER_WITHIN_MS
  );
}

describe('database outage', () => {
  let proxy: TcpProxy;
  let stack: ScenarioStack | undefined;
  let claimsDb: { url: string; drop(): Promise<void> };

  beforeAll(async () => {
    claimsDb = await createEmptyDatabase('resilience_claims');
    const real = new URL(claimsDb.url);
    proxy = await createTcpProxy(real.hostname, Number(real.port || 5432));
    stack = await startScenarioStack('database-outage', { CLAIMS_DATABASE_URL: proxy.urlFor(claimsDb.url) });
  });

  afterAll(async () => {
    proxy?.restore();
    await stack?.cleanup();
    await proxy?.close();
    await claimsDb?.drop();
    writeReliability();
  });

  it('when the claims database is cut, requests answer 503 with Retry-After within 6 s (never 500, never a hang), and the service recovers on its own', async () => {
    const started = Date.now();
    const reader = await bearer('claims:read', 'resilience-reader');
    const mix = { target: stack!.gateway.url, mode: 'mixed', internalToken: reader, requestTimeoutMs: 20000 } as const;
    const saturation = await halfOfSaturation(mix, { claimsDatabaseUrl: claimsDb.url, evidenceDatabaseUrl: stack!.evidenceDatabaseUrl });
    const rate = saturation.rate;
    const load = startLoad({ ...mix, rate, maxRequests: rate * 60, maxSeconds: 40 });
    await load.running();
    await sleep(5000);

    const cutAt = Date.now();
    proxy.cut();
    let probe: { status: number; retryAfter: string | null; contentType: string | null; ms: number } | undefined;
    let readyDuringOutage: number | undefined;
    let restoredAt = 0;
    try {
      await sleep(1000);
      const t0 = Date.now();
      const response = await fetch(`${stack!.claims.url}/api/claims/public/claims`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(claimBody(1)),
        signal: AbortSignal.timeout(20000),
      });
      await response.arrayBuffer();
      probe = {
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        contentType: response.headers.get('content-type'),
        ms: Date.now() - t0,
      };
      readyDuringOutage = (await fetch(`${stack!.claims.url}/readyz`, { signal: AbortSignal.timeout(10000) })).status;
      await sleep(Math.max(0, OUTAGE_MS - (Date.now() - cutAt)));
    } finally {
      proxy.restore();
      restoredAt = Date.now();
    }
    const recovered = await until(
      'claims service ready again',
      async () => (await fetch(`${stack!.claims.url}/readyz`)).status === 200,
      RECOVER_WITHIN_MS,
    ).then(
      () => Date.now() - restoredAt,
      () => undefined,
    );
    const records = await load.finished();

    // Before the cut and once recovered, everything succeeds; in between, only success or a proper 503.
    const recoveredAt = restoredAt + (recovered ?? RECOVER_WITHIN_MS);
    const ok = (r: LoadRecord) => r.status !== undefined && r.status >= 200 && r.status < 300 && r.ended - r.started < ANSWER_WITHIN_MS;
    const bad = records.filter((r) => {
      const touchesOutage = r.ended >= cutAt && r.started <= recoveredAt;
      return touchesOutage ? !(ok(r) || isProperUnavailable(r)) : !ok(r);
    });
    const served503 = records.filter(isProperUnavailable).length;

    // No partial writes: a claim exists for every 201, and every claim row is complete.
    const intakeIds = records.filter((r) => r.op === 'intake' && r.status === 201 && r.claim_id).map((r) => r.claim_id!);
    const rows = await queryRows<{ id: string; updates: string; outbox: string; docs: number }>(
      claimsDb.url,
      `SELECT c.id::text AS id,
              (SELECT count(*) FROM status_updates s WHERE s.claim_id = c.id) AS updates,
              (SELECT count(*) FROM outbox o WHERE o.routing_key = 'claim.created' AND (o.payload->>'subject' = c.id::text OR o.payload->'data'->>'claim_id' = c.id::text)) AS outbox,
              jsonb_array_length(c.required_documents) AS docs
         FROM claims c`,
    );
    const stored = new Set(rows.map((row) => row.id));
    const missing = intakeIds.filter((id) => !stored.has(id));
    const incomplete = rows.filter((row) => Number(row.updates) < 1 || Number(row.outbox) !== 1 || row.docs < 1);
    const committedWithout201 = rows.length - saturation.claimIds.length - intakeIds.length - (probe?.status === 201 ? 1 : 0);
    const audit = await settleAuditLog(
      stack!.evidenceDatabaseUrl,
      rows.map((row) => row.id),
    );
    const pending = await pendingOutbox(claimsDb.url);

    const probeOk =
      !!probe &&
      probe.status === 503 &&
      !!probe.retryAfter &&
      (probe.contentType ?? '').startsWith('application/problem+json') &&
      probe.ms < ANSWER_WITHIN_MS;
    writeFigures({
      scenario: 'database-outage',
      title: 'Database outage (claims)',
      load: `${records.length} mixed requests (intake, status, upload, list, read) through the gateway at ${rate}/s`,
      rate: saturation.describe,
      faults: `claims database connections cut for ${((restoredAt - cutAt) / 1000).toFixed(1)} s (TCP proxy)`,
      badInputsTried: 0,
      recordsLost: missing.length + incomplete.length + audit.lost.length,
      duplicatesApplied: audit.duplicated.length,
      unexpectedStatuses: bad.length + (probeOk ? 0 : 1) + (readyDuringOutage === 503 ? 0 : 1) + (recovered === undefined ? 1 : 0),
      durationSeconds: (Date.now() - started) / 1000,
      notes: [
        `during the outage ${served503} requests were answered 503 problem+json with Retry-After; direct intake probe: ${probe ? `${probe.status} in ${probe.ms} ms, Retry-After ${probe.retryAfter}` : 'no answer'}; /readyz ${readyDuringOutage}`,
        `recovered ${recovered === undefined ? 'NOT within 20 s' : `${(recovered / 1000).toFixed(1)} s after the database came back`}, with no restart`,
        `claims committed although the client saw no 201 (commit raced the cut): ${Math.max(0, committedWithout201)}; every claim row complete: ${incomplete.length === 0}; outbox pending after: ${pending}`,
      ],
    });

    expect(describeRecords(bad, 20)).toBe('');
    expect(probe).toMatchObject({ status: 503 });
    expect(probe!.retryAfter).toBeTruthy();
    expect(probe!.contentType).toMatch(/^application\/problem\+json/);
    expect(probe!.ms).toBeLessThan(ANSWER_WITHIN_MS);
    expect(readyDuringOutage).toBe(503);
    expect(recovered).toBeDefined();
    expect(served503).toBeGreaterThan(0);
    expect(missing).toEqual([]);
    expect(incomplete).toEqual([]);
    expect(audit.lost).toEqual([]);
    expect(audit.duplicated).toEqual([]);
    expect(pending).toBe(0);
  });
});
