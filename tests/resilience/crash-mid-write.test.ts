import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pendingOutbox, settleAuditLog } from './support/audit';
import { countRows, queryRows } from './support/database';
import { filesUnder } from './support/files';
import { describeRecords, startLoad } from './support/load-runner';
import type { LoadRecord } from './support/load';
import { killHard } from './support/kill';
import { writeReliability } from './support/report';
import { writeFigures } from './support/results';
import { halfOfSaturation } from './support/saturation';
import { sleep, startScenarioStack, until, type ScenarioStack } from './support/stack';

describe('crash in the middle of writes', () => {
  let stack: ScenarioStack | undefined;

  // the key-encryption key given as an operator gives it (a mounted Secret), outside DATA_DIR: every new file there is an upload
  const secrets = mkdtempSync(path.join(tmpdir(), 'crash-mid-write-secrets-'));
  const kekFile = path.join(secrets, 'privacy-kek');

  beforeAll(async () => {
    writeFileSync(kekFile, `${randomBytes(32).toString('base64')}\n`, { mode: 0o400 });
    stack = await startScenarioStack('crash-mid-write', { PRIVACY_KEK_FILE: kekFile });
  });

  afterAll(async () => {
    await stack?.cleanup();
    rmSync(secrets, { recursive: true, force: true });
    writeReliability();
  });

  it('after kill -9 during intake and uploads, there are no half-written claims, no orphaned files, and every committed event is published once', async () => {
    const started = Date.now();
    const mix = { target: stack!.claims.url, mode: 'intake+upload', requestTimeoutMs: 15000, uploadBytes: 512 * 1024 } as const;
    // files of the saturation burst are new too: their rows are checked with the rest
    const before = filesUnder(stack!.dataDir);
    const { rate, describe } = await halfOfSaturation(mix, stack!);
    const load = startLoad({ ...mix, rate, maxRequests: rate * 30, maxSeconds: 18 });
    await load.running();
    await sleep(5000);
    const killedAt = Date.now();
    await killHard(stack!.claims);
    await sleep(2000);
    await stack!.claims.start();
    const restartedAt = Date.now();
    const records = await load.finished();

    // Outside the crash window every request succeeds; inside it, a request may fail but never with a 5xx other than 503.
    const crashWindow = (r: LoadRecord) => r.ended >= killedAt && r.started <= restartedAt;
    const bad = records.filter((r) => (crashWindow(r) ? r.status !== undefined && r.status >= 500 && r.status !== 503 : r.status !== 201));
    const createdIds = records.filter((r) => r.op === 'intake' && r.status === 201).map((r) => r.claim_id!);
    const uploadsOk = records.filter((r) => r.op === 'upload' && r.status === 201);

    const claims = await queryRows<{ id: string; updates: string; outbox: string; audit: string; docs: number }>(
      stack!.claimsDatabaseUrl,
      `SELECT c.id::text AS id,
              (SELECT count(*) FROM status_updates s WHERE s.claim_id = c.id) AS updates,
              (SELECT count(*) FROM outbox o WHERE o.routing_key = 'claim.created' AND (o.payload->>'subject' = c.id::text OR o.payload->'data'->>'claim_id' = c.id::text)) AS outbox,
              (SELECT count(*) FROM claim_audit a WHERE a.claim_id = c.id) AS audit,
              CASE WHEN jsonb_typeof(c.required_documents) = 'array' THEN jsonb_array_length(c.required_documents) ELSE 0 END AS docs
         FROM claims c`,
    );
    const halfWritten = claims.filter((c) => Number(c.updates) < 1 || Number(c.outbox) !== 1 || Number(c.audit) < 1 || c.docs < 1);
    const stored = new Set(claims.map((c) => c.id));
    const lostClaims = createdIds.filter((id) => !stored.has(id));

    // where each file is stored: an encrypted one under the SHA-256 of its stored bytes, a plain one under its own
    const attachments = await queryRows<{ claim_id: string; sha256: string }>(
      stack!.claimsDatabaseUrl,
      'SELECT claim_id::text, coalesce(stored_sha256, sha256) AS sha256 FROM attachments',
    );
    const attachedClaims = new Set(attachments.map((a) => a.claim_id));
    const lostUploads = uploadsOk.filter((r) => !attachedClaims.has(r.claim_id!));
    const referenced = new Set(attachments.map((a) => a.sha256));
    const after = filesUnder(stack!.dataDir);
    const newFiles = [...after].filter(([file]) => !before.has(file));
    // the database's own files are not uploads (the service's keys are in the database, wrapped by the given KEK)
    const orphans = newFiles.filter(([file, sha]) => !referenced.has(sha) && !/(^|\/)db\//.test(file));
    const storedHashes = new Set(newFiles.map(([, sha]) => sha));
    const missingFiles = attachments.filter((a) => !storedHashes.has(a.sha256));
    // the restart recovered every placement the killed process announced (file-placements.ts)
    const placementsLeft = await countRows(stack!.claimsDatabaseUrl, 'file_placements');

    await until('outbox drained', async () => (await pendingOutbox(stack!.claimsDatabaseUrl)) === 0, 60000).catch(() => undefined);
    const pending = await pendingOutbox(stack!.claimsDatabaseUrl);
    const audit = await settleAuditLog(
      stack!.evidenceDatabaseUrl,
      claims.map((c) => c.id),
    );

    writeFigures({
      scenario: 'crash-mid-write',
      title: 'Crash in the middle (kill -9)',
      load: `${records.length} requests (${createdIds.length} claims created, ${uploadsOk.length} uploads stored) directly at the claims service at ${rate}/s, 0.5 MiB files`,
      rate: describe,
      faults: `claims process SIGKILLed during the burst, restarted ${((restartedAt - killedAt) / 1000).toFixed(1)} s later`,
      badInputsTried: 0,
      recordsLost: lostClaims.length + lostUploads.length + halfWritten.length + missingFiles.length + audit.lost.length + pending,
      duplicatesApplied: audit.duplicated.length,
      unexpectedStatuses: bad.length + orphans.length,
      durationSeconds: (Date.now() - started) / 1000,
      // orphaned files are neither a lost record nor a status: they fail the scenario on their own
      passed:
        bad.length === 0 &&
        lostClaims.length + lostUploads.length + halfWritten.length + missingFiles.length + orphans.length + placementsLeft + pending ===
          0 &&
        audit.lost.length + audit.duplicated.length === 0,
      notes: [
        ...orphans.slice(0, 5).map(([file]) => `finding: orphaned file left in DATA_DIR after the crash and restart: ${file}`),
        `claim rows ${claims.length} (half-written: ${halfWritten.length}); attachment rows ${attachments.length}; new files in DATA_DIR ${newFiles.length}, orphaned ${orphans.length}, rows without a file ${missingFiles.length}; placement announcements left ${placementsLeft}`,
        `requests that failed inside the crash window (expected): ${records.filter((r) => crashWindow(r) && r.status !== 201).length}`,
      ],
    });

    expect(describeRecords(bad, 20)).toBe('');
    expect(lostClaims).toEqual([]);
    expect(halfWritten).toEqual([]);
    expect(lostUploads.map((r) => r.claim_id)).toEqual([]);
    expect(orphans.map(([file]) => file)).toEqual([]);
    expect(missingFiles).toEqual([]);
    expect(placementsLeft).toBe(0);
    expect(pending).toBe(0);
    expect(audit.lost).toEqual([]);
    expect(audit.duplicated).toEqual([]);
  });
});
