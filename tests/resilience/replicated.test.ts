import { createHash, randomUUID } from 'node:crypto';
import { bearer } from '@platform/testing';
import { ensureNginx } from '../../bench/harness/nginx';
import { pendingOutbox, settleAuditLog } from './support/audit';
import { auditedClaimEvents, lossAndDuplicates, queryRows } from './support/database';
import { killHard } from './support/kill';
import { startMailbox } from './support/mailbox';
import { describeRecords, describeStatuses, startLoad } from './support/load-runner';
import type { LoadRecord } from './support/load';
import { startObjectStore, startReplicatedStack, type ReplicatedStack } from './support/replicated-stack';
import { writeReliability } from './support/report';
import { writeFigures } from './support/results';
import { halfOfSaturation } from './support/saturation';
import { sleep, until } from './support/stack';

const CHECKPOINT_EVERY = 50;
const CONTROLS = 20;
const BREACHED_CLAIMS = 100;
const LOAD_SECONDS = 45; // long enough that the restarted replicas take traffic again before the burst ends
const UPLOAD_BYTES = 64 * 1024;

/** How many times each value occurs, for the values seen more than once. */
function repeated(values: string[]): string[] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].filter(([, n]) => n > 1).map(([value]) => value);
}

describe('every process replicated', () => {
  let stack: ReplicatedStack | undefined;
  let smtp: Awaited<ReturnType<typeof startMailbox>> | undefined;
  let objectStore: Awaited<ReturnType<typeof startObjectStore>> | undefined;

  beforeAll(async () => {
    ensureNginx((line) => console.log(line));
    smtp = await startMailbox();
    objectStore = await startObjectStore();
    stack = await startReplicatedStack(objectStore.config, {
      claims: { SMTP_URL: smtp.url, OVERDUE_SWEEP_INTERVAL_MS: '500' },
      evidence: {
        RUN_SCHEDULER: 'true',
        RUN_SCHEDULER_INTERVAL_MS: '500',
        AUDIT_CHECKPOINT_EVERY: String(CHECKPOINT_EVERY),
        AUDIT_CHECKPOINT_INTERVAL_MS: '1000',
      },
    });
  });

  afterAll(async () => {
    await stack?.cleanup('replicated');
    await smtp?.close();
    await objectStore?.stop();
    writeReliability();
  });

  it('with one replica of each process killed mid-burst and restarted, nothing accepted is lost or repeated, and every background job announces each thing once', async () => {
    const started = Date.now();
    const s = stack!;
    // Half of saturation, measured now through this very stack with the same work (intake, then one upload):
    // the machine is shared, so the bench's figure from an idle run (reported beside it) would overload it.
    const mix = { target: s.url, mode: 'intake+upload', requestTimeoutMs: 20000, uploadBytes: UPLOAD_BYTES } as const;
    const { rate, describe } = await halfOfSaturation(mix, s);
    const writer = await bearer('evidence:write', 'replicated-writer');
    const load = startLoad({ ...mix, rate, maxRequests: rate * LOAD_SECONDS, maxSeconds: LOAD_SECONDS });
    await load.running();
    await sleep(8000);

    // Work for the background jobs of both replicas, handed over just before the kill: due controls for the
    // run schedulers, passed first-contact deadlines for the sweeps.
    const controls = await Promise.all(
      Array.from({ length: CONTROLS }, async (_, n) => {
        const response = await fetch(`${s.url}/api/evidence/controls`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: writer },
          body: JSON.stringify({ key: `REPL-${n}-${randomUUID().slice(0, 8)}`, title: `Replicated control ${n}`, frequency: 'daily' }),
        });
        const body = (await response.json()) as { control_id: string; current_version: { control_version_id: string } };
        if (response.status !== 201) throw new Error(`control answered ${response.status}: ${JSON.stringify(body)}`);
        return body.current_version.control_version_id;
      }),
    );
    // Milliseconds, as the service writes its deadlines (from JavaScript dates).
    const breached = (
      await queryRows<{ id: string }>(
        s.claimsDatabaseUrl,
        `UPDATE claims SET first_contact_due = date_trunc('milliseconds', now()) - interval '1 minute' WHERE id IN (SELECT id FROM claims ORDER BY received_at LIMIT ${BREACHED_CLAIMS}) RETURNING id::text`,
      )
    ).map((row) => row.id);

    const killedAt = Date.now();
    await Promise.all([killHard(s.gateways[0]), killHard(s.claims[0]), killHard(s.evidence[0])]);
    await sleep(3000);
    await Promise.all([s.claims[0].start(), s.evidence[0].start()]);
    await s.gateways[0].start();
    const restartedAt = Date.now();
    const records = await load.finished();

    // A request in flight on a killed process may fail with a 502/503/504; nothing else may fail, at any time.
    const duringKill = (r: LoadRecord) => r.ended >= killedAt && r.started <= restartedAt;
    const failedDuringKill = records.filter((r) => duringKill(r) && r.status !== 201);
    const bad = records.filter((r) => r.status !== 201 && !(duringKill(r) && [502, 503, 504].includes(r.status ?? 0)));
    const accepted = records.filter((r) => r.op === 'intake' && r.status === 201).map((r) => r.claim_id!);
    const uploadsOk = records.filter((r) => r.op === 'upload' && r.status === 201);

    await until('outbox drained', async () => (await pendingOutbox(s.claimsDatabaseUrl)) === 0, 60000).catch(() => undefined);
    const claimRows = await queryRows<{ id: string }>(s.claimsDatabaseUrl, 'SELECT id::text FROM claims');
    const storedClaims = new Set(claimRows.map((row) => row.id));
    const lostClaims = accepted.filter((id) => !storedClaims.has(id));
    // Every claim stored, accepted or not (a commit whose answer died with its replica), is audited exactly once.
    const audit = await settleAuditLog(s.evidenceDatabaseUrl, [...storedClaims]);

    // Attachments: every stored file downloads, byte for byte, from each claims replica directly.
    const attachments = await queryRows<{ id: string; claim_id: string; sha256: string }>(
      s.claimsDatabaseUrl,
      'SELECT id::text, claim_id::text, sha256 FROM attachments',
    );
    const attachedClaims = new Set(attachments.map((a) => a.claim_id));
    const lostUploads = uploadsOk.filter((r) => !attachedClaims.has(r.claim_id!));
    const reader = await bearer('claims:read', 'replicated-reader');
    const notServed: string[] = [];
    for (let i = 0; i < attachments.length; i += 16) {
      await Promise.all(
        attachments.slice(i, i + 16).flatMap((a) =>
          s.claims.map(async (replica) => {
            const response = await fetch(`${replica.url}/api/claims/claims/${a.claim_id}/attachments/${a.id}/content`, {
              headers: { authorization: reader },
            });
            const sha = createHash('sha256')
              .update(Buffer.from(await response.arrayBuffer()))
              .digest('hex');
            if (response.status !== 200 || sha !== a.sha256) notServed.push(`${replica.name} ${a.id} → ${response.status}`);
          }),
        ),
      );
    }

    // Deadline sweeps (both claims replicas): each passed deadline announced once, and audited once.
    await until(
      'deadlines announced',
      async () =>
        (await queryRows(s.claimsDatabaseUrl, `SELECT 1 FROM deadline_breaches WHERE deadline = 'first_contact'`)).length >=
        breached.length,
      60000,
    ).catch(() => undefined);
    const breachEvents = await queryRows<{ subject: string }>(
      s.claimsDatabaseUrl,
      `SELECT payload->>'subject' AS subject FROM outbox WHERE routing_key = 'claim.sla_breached'`,
    );
    const sweep = lossAndDuplicates(breached, new Map(breached.map((id) => [id, breachEvents.filter((e) => e.subject === id).length])));
    const breachAudit = lossAndDuplicates(breached, await auditedClaimEvents(s.evidenceDatabaseUrl, 'claim.sla_breached'));

    // Delivery senders (both claims replicas): each acknowledgement mailed once. A lease held by the killed replica runs out after 60 s.
    await until(
      'deliveries done',
      async () => (await queryRows(s.claimsDatabaseUrl, `SELECT 1 FROM deliveries WHERE status = 'pending'`)).length === 0,
      120000,
    ).catch(() => undefined);
    const sent = await queryRows<{ update_id: string }>(
      s.claimsDatabaseUrl,
      `SELECT update_id::text FROM deliveries WHERE channel = 'email' AND status = 'sent'`,
    );
    const pendingDeliveries = (await queryRows(s.claimsDatabaseUrl, `SELECT 1 FROM deliveries WHERE status = 'pending'`)).length;
    const mailed = smtp!.updateIds;
    const mailedOnce = new Set(mailed);
    const unmailed = sent.filter((d) => !mailedOnce.has(d.update_id));
    const mailedTwice = repeated(mailed);

    // Run schedulers (both evidence replicas): one run per due control, created and audited once.
    await until(
      'runs opened',
      async () =>
        (await queryRows(s.evidenceDatabaseUrl, 'SELECT 1 FROM evidence_runs WHERE control_version_id = ANY($1::uuid[])', [controls]))
          .length >= controls.length,
      60000,
    ).catch(() => undefined);
    const runs = await queryRows<{ run_id: string; control_version_id: string }>(
      s.evidenceDatabaseUrl,
      'SELECT run_id::text, control_version_id::text FROM evidence_runs WHERE control_version_id = ANY($1::uuid[])',
      [controls],
    );
    const runsPerControl = lossAndDuplicates(
      controls,
      new Map(controls.map((c) => [c, runs.filter((r) => r.control_version_id === c).length])),
    );
    const runAudit = lossAndDuplicates(
      runs.map((r) => r.run_id),
      await auditedEntities(s.evidenceDatabaseUrl, 'evidence.run_created'),
    );

    // Checkpoints: the last one signs the whole log; each signed and announced once, in order.
    await until(
      'head checkpointed',
      async () => {
        const [row] = await queryRows<{ head: string | null; signed: string | null }>(
          s.evidenceDatabaseUrl,
          'SELECT (SELECT max(seq) FROM audit_log) AS head, (SELECT max(seq) FROM audit_checkpoints) AS signed',
        );
        return row.head === row.signed;
      },
      30000,
    ).catch(() => undefined);
    const [heads] = await queryRows<{ head: string; signed: string }>(
      s.evidenceDatabaseUrl,
      'SELECT (SELECT max(seq) FROM audit_log) AS head, (SELECT max(seq) FROM audit_checkpoints) AS signed',
    );
    const checkpoints = await queryRows<{ seq: string }>(
      s.evidenceDatabaseUrl,
      'SELECT seq::text FROM audit_checkpoints ORDER BY signed_at, seq',
    );
    const checkpointEvents = await queryRows<{ subject: string }>(
      s.evidenceDatabaseUrl,
      `SELECT payload->>'subject' AS subject FROM outbox WHERE routing_key = 'evidence.audit_checkpoint'`,
    );
    const checkpointSeqs = checkpoints.map((c) => Number(c.seq));
    const outOfOrder = checkpointSeqs.filter((seq, i) => i > 0 && seq <= checkpointSeqs[i - 1]);
    const checkpointsUnannounced = lossAndDuplicates(
      checkpoints.map((c) => c.seq),
      new Map(checkpoints.map((c) => [c.seq, checkpointEvents.filter((e) => e.subject === c.seq).length])),
    );
    const headUnsigned = heads.head === heads.signed ? 0 : 1;
    const largestGap = Math.max(0, ...checkpointSeqs.map((seq, i) => seq - (checkpointSeqs[i - 1] ?? 0)));

    // Every event either service committed reached the broker.
    await until('evidence outbox drained', async () => (await pendingOutbox(s.evidenceDatabaseUrl)) === 0, 30000).catch(() => undefined);
    const unpublished = (await pendingOutbox(s.claimsDatabaseUrl)) + (await pendingOutbox(s.evidenceDatabaseUrl));

    const verify = await fetch(`${s.url}/api/evidence/audit/verify`, {
      headers: { authorization: await bearer('audit:read', 'replicated-auditor') },
    });
    const report = (await verify.json()) as { valid: boolean; records_checked: number; checkpoint: { signature_valid: boolean } | null };
    const chainBroken = verify.status === 200 && report.valid && report.checkpoint?.signature_valid ? 0 : 1;

    const lost =
      lostClaims.length +
      audit.lost.length +
      lostUploads.length +
      notServed.length +
      sweep.lost.length +
      breachAudit.lost.length +
      unmailed.length +
      pendingDeliveries +
      runsPerControl.lost.length +
      runAudit.lost.length +
      checkpointsUnannounced.lost.length +
      headUnsigned +
      unpublished;
    const duplicated =
      audit.duplicated.length +
      sweep.duplicated.length +
      breachAudit.duplicated.length +
      mailedTwice.length +
      runsPerControl.duplicated.length +
      runAudit.duplicated.length +
      checkpointsUnannounced.duplicated.length +
      outOfOrder.length;
    const fiveHundreds = failedDuringKill.filter((r) => (r.status ?? 0) >= 500).length;
    writeFigures({
      scenario: 'replicated',
      title: 'Every process replicated (kill -9 of one replica each)',
      load:
        `${records.length} requests through nginx → 2 gateways → 2 claims + 2 evidence replicas: ${accepted.length} claims accepted, ${uploadsOk.length} uploads (64 KiB) stored, ` +
        `at ${rate} intakes/s each followed by an upload (${2 * rate} requests/s)`,
      rate: describe,
      faults: `kill -9 of gateway-a, claims-a and evidence-a together mid-burst, restarted ${((restartedAt - killedAt) / 1000).toFixed(1)} s later`,
      badInputsTried: 0,
      recordsLost: lost,
      duplicatesApplied: duplicated,
      unexpectedStatuses: bad.length + chainBroken,
      durationSeconds: (Date.now() - started) / 1000,
      notes: [
        `accepted ${accepted.length}, lost ${lostClaims.length + audit.lost.length}, duplicated ${audit.duplicated.length} (claim.created in the audit log of ${storedClaims.size} stored claims); ` +
          `5xx during the kill ${fiveHundreds} (${describeStatuses(failedDuringKill)}), other failures ${bad.length}`,
        `attachments: ${attachments.length} stored, each downloaded from both claims replicas directly: ${notServed.length} not served or different`,
        `deadline sweep: ${breached.length} passed first-contact deadlines, ${breachEvents.length} claim.sla_breached events (${sweep.duplicated.length} repeated, ${sweep.lost.length} missing), audited once each: ${breachAudit.lost.length + breachAudit.duplicated.length === 0}`,
        `delivery sender: ${sent.length} acknowledgements sent, ${mailed.length} mails received (${mailedTwice.length} repeated as a second message, ${smtp!.resentUpdateIds.length} resent under the same Message-ID after the kill, ${unmailed.length} sent without a mail, ${pendingDeliveries} still pending)`,
        `run scheduler (RUN_SCHEDULER=true on both evidence replicas): ${controls.length} due controls, ${runs.length} runs opened (${runsPerControl.duplicated.length} doubled, ${runsPerControl.lost.length} missing), run_created audited once each: ${runAudit.lost.length + runAudit.duplicated.length === 0}`,
        `checkpoints: ${checkpoints.length} (AUDIT_CHECKPOINT_EVERY ${CHECKPOINT_EVERY}, largest gap ${largestGap} records), ${checkpointEvents.length} announced, out of order ${outOfOrder.length}, head ${heads.head} signed: ${headUnsigned === 0}; audit chain of ${report.records_checked} records verifies: ${chainBroken === 0}`,
        `outbox rows never published (both services): ${unpublished}`,
        ...bad
          .slice(0, 5)
          .map(
            (r) =>
              `unexpected: #${r.i} ${r.op} → ${r.status ?? r.error} (${r.content_type ?? 'no body'}) after ${r.ended - r.started} ms, ${r.started - killedAt} ms after the kill`,
          ),
        'uploaded files in S3-compatible object storage (s3rver started by the test), every replica with a DATA_DIR of its own',
      ],
    });

    expect(describeRecords(bad, 20)).toBe('');
    expect({ lostClaims, lost: audit.lost, duplicated: audit.duplicated }).toEqual({ lostClaims: [], lost: [], duplicated: [] });
    expect(lostUploads.map((r) => r.claim_id)).toEqual([]);
    expect(notServed).toEqual([]);
    expect({ sweep, breachAudit }).toEqual({ sweep: { lost: [], duplicated: [] }, breachAudit: { lost: [], duplicated: [] } });
    expect({ unmailed, mailedTwice, pendingDeliveries }).toEqual({ unmailed: [], mailedTwice: [], pendingDeliveries: 0 });
    expect({ runsPerControl, runAudit }).toEqual({ runsPerControl: { lost: [], duplicated: [] }, runAudit: { lost: [], duplicated: [] } });
    expect({ checkpointsUnannounced, outOfOrder, unsignedHead: heads.head === heads.signed }).toEqual({
      checkpointsUnannounced: { lost: [], duplicated: [] },
      outOfOrder: [],
      unsignedHead: true,
    });
    expect(unpublished).toBe(0);
    expect(chainBroken).toBe(0);
  });
});

/** How often each audit record of `action` names each entity. */
async function auditedEntities(evidenceDatabaseUrl: string, action: string): Promise<Map<string, number>> {
  const rows = await queryRows<{ entity_id: string; n: string }>(
    evidenceDatabaseUrl,
    'SELECT entity_id, count(*) AS n FROM audit_log WHERE action = $1 GROUP BY entity_id',
    [action],
  );
  return new Map(rows.map((row) => [row.entity_id, Number(row.n)]));
}
