import { Writable } from 'node:stream';
import pino from 'pino';
import { Registry } from 'prom-client';
import { appendAuditRecord } from '../../shared/audit-append';
import { newSigningKey, startAuditTestService, type AuditTestService } from '../../testing/audit-test-service';
import { takeCheckpoint } from './audit-checkpoints';
import { watchAuditLog, startAuditWatcher } from './audit-watch';
import { createCheckpointSigner, parseSigningKey } from './checkpoint-signer';

describe('the background audit verifier', () => {
  let kit: AuditTestService;
  const signer = () => createCheckpointSigner(parseSigningKey(kit.config.AUDIT_SIGNING_KEY!));
  const append = (n: number, tag: string) =>
    Promise.all(
      Array.from({ length: n }, (_, i) =>
        appendAuditRecord(kit.service.deps.db, {
          action: 'evidence.watched',
          source: 'evidence',
          entity_type: 'run',
          entity_id: `${tag}-${i}`,
          actor: 'a',
          data: { i },
        }),
      ),
    );
  const checkpoint = () => takeCheckpoint(kit.service.deps.db, signer(), kit.config.EVIDENCE_EXCHANGE);
  const pass = () => watchAuditLog(kit.service.deps.db, signer(), kit.config.EVIDENCE_EXCHANGE, 2);
  const breakEvents = async () =>
    Number((await kit.superuser("SELECT count(*) AS n FROM outbox WHERE payload->>'type' = 'evidence.audit_break_detected'")).rows[0].n);

  beforeAll(async () => {
    // The service's own watcher waits an hour between passes: the test drives the passes.
    kit = await startAuditTestService({ AUDIT_SIGNING_KEY: newSigningKey(), AUDIT_WATCH_INTERVAL_MS: '3600000' });
  });
  afterAll(async () => {
    await kit?.stop();
  });

  it('verifies from the last verified tree head to the newest, then raises a break once: event, metric, error log, persisted', async () => {
    await append(5, 'first');
    const first = (await checkpoint())!;
    expect(await pass()).toEqual({ result: 'verified', verifiedSize: first.seq });
    expect(await pass()).toEqual({ result: 'up_to_date', verifiedSize: first.seq });

    await append(4, 'second');
    const second = (await checkpoint())!;
    expect(await pass()).toEqual({ result: 'verified', verifiedSize: second.seq });

    // As the database owner would, with psql: edit a record appended since, behind the triggers' back.
    await append(3, 'third');
    const third = (await checkpoint())!;
    const edited = second.seq + 2;
    await kit.superuser('ALTER TABLE audit_log DISABLE TRIGGER USER');
    try {
      await kit.superuser(`UPDATE audit_log SET data = '{"i": 99}' WHERE seq = ?`, [edited]);
    } finally {
      await kit.superuser('ALTER TABLE audit_log ENABLE TRIGGER USER');
    }

    const lines: { level: number; msg: string; audit_break?: unknown }[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({ write: (chunk, _encoding, done) => (lines.push(JSON.parse(String(chunk))), done()) }),
    );
    const metrics = new Registry();
    const watcher = startAuditWatcher({
      db: kit.service.deps.db,
      signer: signer(),
      exchange: kit.config.EVIDENCE_EXCHANGE,
      logger,
      metrics,
      intervalMs: 3_600_000,
      pageSize: 2,
    });
    try {
      await watcher.pass(); // the pass started with the watcher, or this one
      const again = await watcher.pass();
      expect(again).toEqual({ result: 'already_broken', verifiedSize: second.seq });
    } finally {
      await watcher.stop();
    }
    const expectedBreak = {
      seq: edited,
      reason: 'edited_record',
      verified_size: second.seq,
      tree_size: third.seq,
      detected_at: expect.any(String),
    };
    expect(lines.filter((line) => line.level === 50)).toEqual([
      expect.objectContaining({ msg: 'audit log break detected', audit_break: expectedBreak }),
    ]);
    expect((await metrics.getSingleMetric('evidence_audit_breaks_detected_total')!.get()).values[0].value).toBe(1);
    expect(await breakEvents()).toBe(1);
    expect((await kit.superuser('SELECT break_seq, break_reason FROM audit_watch')).rows).toEqual([
      { break_seq: String(edited), break_reason: 'edited_record' },
    ]);

    // Raised once: later passes, even after more records and checkpoints, announce nothing again.
    await append(2, 'fourth');
    await checkpoint();
    expect(await pass()).toEqual({ result: 'already_broken', verifiedSize: second.seq });
    expect(await breakEvents()).toBe(1);
  });
});
