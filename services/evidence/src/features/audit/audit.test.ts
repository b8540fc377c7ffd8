import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import request from 'supertest';
import { bearer, captureEvents, eventually } from '@platform/testing';
import { appendAuditRecord } from '../../shared/audit-append';
import { GENESIS_HASH, recordHash, type AuditRecord } from '../../shared/audit-chain';
import { takeCheckpoint } from './audit-checkpoints';
import { checkpointMessage, createCheckpointSigner, parseSigningKey } from './checkpoint-signer';
import { newSigningKey, startAuditTestService, type AuditTestService } from '../../testing/audit-test-service';
import { readEvidenceConfig } from '../../config';
import { evidenceService } from '../../service';

const READ = 'audit:read';

async function append(kit: AuditTestService, count: number, entityId = 'run-1') {
  for (let i = 0; i < count; i += 1) {
    await appendAuditRecord(kit.service.deps.db, {
      action: 'evidence.test_happened',
      source: 'evidence',
      entity_type: 'run',
      entity_id: entityId,
      actor: 'alice',
      data: { n: i, note: 'é ✓ "quoted"', nested: { b: 1, a: [1.5, null, true] } },
    });
  }
}

async function checkpoint(kit: AuditTestService) {
  const signer = createCheckpointSigner(parseSigningKey(kit.config.AUDIT_SIGNING_KEY!));
  return takeCheckpoint(kit.service.deps.db, signer, kit.config.EVIDENCE_EXCHANGE);
}

async function verifyChain(kit: AuditTestService, query: Record<string, string | number> = {}) {
  const response = await request(kit.service.url)
    .get('/api/evidence/audit/verify')
    .query(query)
    .set('Authorization', await bearer(READ))
    .expect(200);
  return response.body;
}

/** Rewrites rows as a database superuser would, with the append-only triggers switched off. */
async function tamper(kit: AuditTestService, sql: string, params: unknown[] = []) {
  await kit.superuser('ALTER TABLE audit_log DISABLE TRIGGER USER');
  await kit.superuser('ALTER TABLE audit_checkpoints DISABLE TRIGGER USER');
  try {
    await kit.superuser(sql, params);
  } finally {
    await kit.superuser('ALTER TABLE audit_log ENABLE TRIGGER USER');
    await kit.superuser('ALTER TABLE audit_checkpoints ENABLE TRIGGER USER');
  }
}

describe('audit signing key configuration', () => {
  const env = { NODE_ENV: 'test', AUTH_JWT_SECRET: 'x'.repeat(32) };

  it.each([
    ['not a key', 'nonsense'],
    ['a PEM that is not a key', '-----BEGIN PRIVATE KEY-----\\nAAAA\\n-----END PRIVATE KEY-----'],
  ])('refuses to start with %s as AUDIT_SIGNING_KEY', (_what, key) => {
    expect(() => evidenceService(readEvidenceConfig({ ...env, AUDIT_SIGNING_KEY: key }))).toThrow(
      /AUDIT_SIGNING_KEY is not a PKCS#8 private key/,
    );
  });

  it('refuses a key that is not Ed25519', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => evidenceService(readEvidenceConfig({ ...env, AUDIT_SIGNING_KEY: rsa }))).toThrow(/must be an Ed25519 key/);
  });

  it('reads the same key as PEM, as PEM with escaped newlines, and as base64 DER', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const der = privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
    const ids = [pem, pem.replace(/\n/g, '\\n'), der].map((value) => createCheckpointSigner(parseSigningKey(value)).keyId);
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).toMatch(/^[0-9a-f]{16}$/);
  });

  it('production refuses to start without AUDIT_SIGNING_KEY', () => {
    expect(() => readEvidenceConfig({ ...env, NODE_ENV: 'production', DATABASE_URL: 'postgres://x/y', AMQP_URL: 'amqp://x' })).toThrow(
      /AUDIT_SIGNING_KEY/,
    );
  });
});

describe('audit log over HTTP', () => {
  let kit: AuditTestService;

  beforeAll(async () => {
    kit = await startAuditTestService({ AUDIT_SIGNING_KEY: newSigningKey() });
  });
  afterAll(async () => {
    await kit?.stop();
  });

  it.each([
    '/api/evidence/audit/verify',
    '/api/evidence/audit/records',
    '/api/evidence/audit/checkpoints',
    '/api/evidence/audit/public-key',
  ])('%s answers 401 without credentials and 403 without audit:read', async (path) => {
    const anonymous = await request(kit.service.url).get(path).expect(401);
    expect(anonymous.headers['content-type']).toMatch(/application\/problem\+json/);
    await request(kit.service.url).get(path).set('Authorization', 'Bearer not-a-jwt').expect(401);
    const forbidden = await request(kit.service.url)
      .get(path)
      .set('Authorization', await bearer('evidence:write evidence:approve'))
      .expect(403);
    expect(forbidden.body).toMatchObject({ status: 403 });
  });

  it.each([
    [{ from_seq: '0' }],
    [{ from_seq: 'abc' }],
    [{ to_seq: '1.5' }],
    [{ to_seq: '-3' }],
    [{ from_seq: '99999999999999999999' }],
    [{ from_seq: '5', to_seq: '4' }],
    [{ since: '1' }],
    ['from_seq=1&from_seq=2'],
  ])('verify rejects the bad query %j with 400', async (query) => {
    const response = await request(kit.service.url)
      .get('/api/evidence/audit/verify')
      .query(query)
      .set('Authorization', await bearer(READ))
      .expect(400);
    expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
  });

  it.each([
    { limit: '0' },
    { limit: '501' },
    { source: 'gateway' },
    { after_seq: '-1' },
    { entity_id: '' },
    { cursor: 'x' },
    { action: 'run\u0000created' },
    { entity_id: '\u0000' },
  ])('records rejects the bad query %j with 400', async (query) => {
    const response = await request(kit.service.url)
      .get('/api/evidence/audit/records')
      .query(query)
      .set('Authorization', await bearer(READ))
      .expect(400);
    expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
  });

  it('checkpoints rejects a bad limit with 400', async () => {
    await request(kit.service.url)
      .get('/api/evidence/audit/checkpoints')
      .query({ limit: 1000 })
      .set('Authorization', await bearer(READ))
      .expect(400);
  });

  it('documents every audit operation in the OpenAPI document', async () => {
    const doc = await request(kit.service.url).get('/openapi.json').expect(200);
    for (const path of ['/audit/verify', '/audit/records', '/audit/checkpoints', '/audit/public-key']) {
      expect(doc.body.paths[path].get.security).toEqual([{ bearerJwt: ['audit:read'] }]);
      expect(Object.keys(doc.body.paths[path].get.responses)).toEqual(expect.arrayContaining(['200', '401', '403']));
    }
    expect(doc.body.paths['/audit/verify'].get.responses['400']).toBeDefined();
  });

  it('an empty log verifies as valid with nothing checked', async () => {
    const report = await verifyChain(kit);
    expect(report).toMatchObject({
      valid: true,
      records_checked: 0,
      first_seq: null,
      last_seq: null,
      head_hash: null,
      checkpoint: null,
      first_invalid: null,
    });
    expect(typeof report.duration_ms).toBe('number');
    expect(Date.parse(report.verified_at)).not.toBeNaN();
  });

  it('refuses UPDATE, DELETE and TRUNCATE at the database, even for its owner', async () => {
    await append(kit, 1, 'append-only');
    await expect(kit.superuser("UPDATE audit_log SET actor = 'mallory'")).rejects.toThrow(/append-only/);
    await expect(kit.superuser('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
    await expect(kit.superuser('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
    await checkpoint(kit);
    await expect(kit.superuser("UPDATE audit_checkpoints SET hash = 'x'")).rejects.toThrow(/append-only/);
    await expect(kit.superuser('TRUNCATE audit_checkpoints')).rejects.toThrow(/append-only/);
  });

  it('a rolled-back append leaves no gap', async () => {
    const db = kit.service.deps.db;
    await expect(
      db.transaction(async (trx) => {
        await appendAuditRecord(trx, {
          action: 'x.y',
          source: 'evidence',
          entity_type: 'run',
          entity_id: 'rolled-back',
          actor: 'a',
          data: {},
        });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const next = await appendAuditRecord(db, {
      action: 'x.y',
      source: 'evidence',
      entity_type: 'run',
      entity_id: 'kept',
      actor: 'a',
      data: {},
    });
    const before = await db('audit_log')
      .where('seq', next.seq - 1)
      .first();
    expect(before.entity_id).not.toBe('rolled-back');
    expect(await db('audit_log').where('entity_id', 'rolled-back').first()).toBeUndefined();
    expect((await verifyChain(kit)).valid).toBe(true);
  });

  it('50 concurrent writers leave one valid, gapless chain', async () => {
    const db = kit.service.deps.db;
    const start = Number((await db('audit_log').max('seq as max').first())?.max ?? 0);
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        db.transaction((trx) =>
          appendAuditRecord(trx, {
            action: 'evidence.concurrent',
            source: 'evidence',
            entity_type: 'run',
            entity_id: `w-${i}`,
            actor: `writer-${i}`,
            data: { i },
          }),
        ),
      ),
    );
    const rows = await db('audit_log').select('seq', 'prev_hash', 'hash').orderBy('seq');
    expect(rows.map((row) => Number(row.seq))).toEqual(Array.from({ length: start + 50 }, (_, i) => i + 1));
    expect(new Set(rows.map((row) => row.prev_hash)).size).toBe(rows.length); // no fork: every head is extended once
    const report = await verifyChain(kit);
    expect(report).toMatchObject({ valid: true, records_checked: start + 50, first_seq: 1, last_seq: start + 50, first_invalid: null });
    expect(report.head_hash).toBe(rows[rows.length - 1].hash);
  });

  it('verification while writers append and checkpoints are taken reports a valid chain every time', async () => {
    const db = kit.service.deps.db;
    let writing = true;
    const writers = (async () => {
      for (let round = 0; writing && round < 40; round += 1) {
        await Promise.all([
          appendAuditRecord(db, {
            action: 'evidence.while_verifying',
            source: 'evidence',
            entity_type: 'run',
            entity_id: `v-${round}`,
            actor: 'w',
            data: { round },
          }),
          appendAuditRecord(db, {
            action: 'evidence.while_verifying',
            source: 'evidence',
            entity_type: 'run',
            entity_id: `v-${round}`,
            actor: 'w',
            data: { round, b: true },
          }),
        ]);
        await checkpoint(kit);
      }
    })();
    const reports = [];
    for (let i = 0; i < 8; i += 1) reports.push(await verifyChain(kit));
    writing = false;
    await writers;
    for (const report of reports) expect(report).toMatchObject({ valid: true, first_invalid: null });
  });

  it('records are served oldest first, filtered, and paged with next_cursor', async () => {
    await append(kit, 5, 'paged-entity');
    const auth = await bearer(READ);
    const first = await request(kit.service.url)
      .get('/api/evidence/audit/records')
      .query({ entity_id: 'paged-entity', limit: 3 })
      .set('Authorization', auth)
      .expect(200);
    expect(first.body.items).toHaveLength(3);
    expect(first.body.next_cursor).toBe(String(first.body.items[2].seq));
    const second = await request(kit.service.url)
      .get('/api/evidence/audit/records')
      .query({ entity_id: 'paged-entity', limit: 3, after_seq: first.body.next_cursor })
      .set('Authorization', auth)
      .expect(200);
    expect(second.body.items).toHaveLength(2);
    expect(second.body.next_cursor).toBeNull();
    const items: AuditRecord[] = [...first.body.items, ...second.body.items];
    expect(items.map((item) => item.data.n)).toEqual([0, 1, 2, 3, 4]);
    for (let i = 1; i < items.length; i += 1) expect(items[i].seq).toBeGreaterThan(items[i - 1].seq);
    const item = items[0];
    expect(Object.keys(item).sort()).toEqual(
      [
        'action',
        'actor',
        'data',
        'entity_id',
        'entity_type',
        'event_id',
        'hash',
        'occurred_at',
        'prev_hash',
        'recorded_at',
        'seq',
        'source',
      ].sort(),
    );
    expect(item).toMatchObject({
      action: 'evidence.test_happened',
      source: 'evidence',
      entity_type: 'run',
      actor: 'alice',
      event_id: null,
    });
    expect(item.recorded_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(recordHash(item)).toBe(item.hash); // what the API serves is what was hashed
    const none = await request(kit.service.url)
      .get('/api/evidence/audit/records')
      .query({ source: 'claims' })
      .set('Authorization', auth)
      .expect(200);
    expect(none.body).toEqual({ items: [], next_cursor: null });
    const byAction = await request(kit.service.url)
      .get('/api/evidence/audit/records')
      .query({ action: 'evidence.concurrent', limit: 500 })
      .set('Authorization', auth)
      .expect(200);
    expect(byAction.body.items).toHaveLength(50);
  });

  it('filters records by entity type, actor and the time they were recorded, on the server; a malformed bound is 400', async () => {
    const entity = `filtered-${Date.now()}`;
    const add = (actor: string, entity_type: string) =>
      appendAuditRecord(kit.service.deps.db, {
        action: 'evidence.filtered',
        source: 'evidence',
        entity_type,
        entity_id: entity,
        actor,
        data: {},
      });
    const before = await add('ivy', 'run');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = [await add('ivy', 'binder'), await add('otto', 'run')];
    const auth = await bearer(READ);
    const seqs = async (query: Record<string, string>) =>
      (
        await request(kit.service.url)
          .get('/api/evidence/audit/records')
          .query({ entity_id: entity, ...query })
          .set('Authorization', auth)
          .expect(200)
      ).body.items.map((item: AuditRecord) => item.seq);
    expect(await seqs({ actor: 'ivy' })).toEqual([before.seq, later[0].seq]);
    expect(await seqs({ entity_type: 'run' })).toEqual([before.seq, later[1].seq]);
    expect(await seqs({ actor: 'ivy', entity_type: 'binder' })).toEqual([later[0].seq]);
    expect(await seqs({ recorded_from: later[0].recorded_at })).toEqual(later.map((record) => record.seq));
    expect(await seqs({ recorded_before: later[0].recorded_at })).toEqual([before.seq]);
    // The same instant in another offset is the same bound.
    const offset = new Date(new Date(later[0].recorded_at).getTime()).toISOString().replace('Z', '+00:00');
    expect(await seqs({ recorded_from: offset })).toEqual(later.map((record) => record.seq));
    const bad = await request(kit.service.url)
      .get('/api/evidence/audit/records')
      .query({ recorded_from: 'yesterday' })
      .set('Authorization', auth)
      .expect(400);
    expect(bad.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('signed checkpoints are listed, announced as events, and verify offline with the served public key', async () => {
    const events = await captureEvents(kit.config.EVIDENCE_EXCHANGE, ['evidence.audit_checkpoint']);
    try {
      await append(kit, 2, 'checkpointed');
      const taken = await checkpoint(kit);
      expect(taken).toBeDefined();
      expect(await checkpoint(kit)).toBeUndefined(); // nothing new to sign
      const auth = await bearer(READ);
      const keyResponse = await request(kit.service.url).get('/api/evidence/audit/public-key').set('Authorization', auth).expect(200);
      expect(keyResponse.headers['content-type']).toMatch(/application\/x-pem-file/);
      const publicKey = createPublicKey(keyResponse.text);
      const list = await request(kit.service.url).get('/api/evidence/audit/checkpoints').set('Authorization', auth).expect(200);
      const last = list.body.items[list.body.items.length - 1];
      expect(last).toEqual(taken);
      expect(last.key_id).toBe(keyResponse.headers['x-audit-key-id']);
      const message = Buffer.from(`{"hash":"${last.hash}","seq":${last.seq}}`, 'utf8');
      expect(checkpointMessage(last.seq, last.hash).equals(message)).toBe(true);
      expect(verify(null, message, publicKey, Buffer.from(last.signature, 'base64'))).toBe(true);
      const head = await request(kit.service.url)
        .get('/api/evidence/audit/records')
        .query({ after_seq: last.seq - 1 })
        .set('Authorization', auth)
        .expect(200);
      expect(head.body.items[0].hash).toBe(last.hash);
      const [event] = await events.waitFor((received) => received.length >= 1);
      expect(event.routingKey).toBe('evidence.audit_checkpoint');
      expect(event.body.data).toMatchObject({ seq: last.seq, hash: last.hash, signature: last.signature });
      const report = await verifyChain(kit);
      expect(report).toMatchObject({
        valid: true,
        checkpoint: { seq: last.seq, hash: last.hash, signed_at: last.signed_at, signature_valid: true },
      });
    } finally {
      await events.close();
    }
  });

  it('verifies a range, checking its link to the record before it', async () => {
    const report = await verifyChain(kit, { from_seq: 3, to_seq: 7 });
    expect(report).toMatchObject({ valid: true, records_checked: 5, first_seq: 3, last_seq: 7 });
  });

  it('streams in pages of AUDIT_VERIFY_PAGE_SIZE rather than loading the log', async () => {
    // the background verifier reads pages of the same size: off, so only the verify request's pages are counted
    await kit.restart({ AUDIT_VERIFY_PAGE_SIZE: '7', AUDIT_WATCH_INTERVAL_MS: '0' });
    const total = Number((await kit.service.deps.db('audit_log').count('* as n').first())?.n);
    // A page is one statement over a range of 7 seqs; the short page at the log's end is read again under a LIMIT of 7.
    const pageRanges: number[] = [];
    const limitedReads: string[] = [];
    kit.service.deps.db.on('query', (query: { sql: string; bindings?: unknown[] }) => {
      const bindings = (query.bindings ?? []).map(Number);
      if (/FROM audit_log l\b/.test(query.sql)) pageRanges.push(bindings[5] - bindings[4] + 1);
      else if (/from "audit_log"/.test(query.sql) && /limit/.test(query.sql)) limitedReads.push(String(bindings[bindings.length - 1]));
    });
    const report = await verifyChain(kit);
    expect(report).toMatchObject({ valid: true, records_checked: total });
    expect(pageRanges.length).toBe(Math.floor(total / 7) + 1);
    expect(new Set(pageRanges)).toEqual(new Set([7]));
    expect(limitedReads).toEqual(['7']);
  });
});

describe('audit log tamper evidence', () => {
  let kit: AuditTestService;

  beforeEach(async () => {
    kit = await startAuditTestService({ AUDIT_SIGNING_KEY: newSigningKey(), AUDIT_VERIFY_PAGE_SIZE: '4' });
    await append(kit, 6);
    await checkpoint(kit); // anchors seq 6
    await append(kit, 4);
    await checkpoint(kit); // anchors seq 10
    await append(kit, 2); // 11 and 12 not yet anchored
    expect((await verifyChain(kit)).valid).toBe(true);
  });
  afterEach(async () => {
    await kit?.stop();
  });

  it('an edited record is named as edited_record at its seq', async () => {
    await tamper(kit, `UPDATE audit_log SET data = jsonb_set(data, '{n}', '42') WHERE seq = 4`);
    const report = await verifyChain(kit);
    expect(report).toMatchObject({ valid: false, first_invalid: { seq: 4, reason: 'edited_record' }, records_checked: 3, last_seq: 3 });
  });

  it('an edited actor or timestamp is caught too', async () => {
    await tamper(kit, `UPDATE audit_log SET recorded_at = '2020-01-01T00:00:00.000Z' WHERE seq = 9`);
    expect((await verifyChain(kit)).first_invalid).toEqual({ seq: 9, reason: 'edited_record' });
  });

  it('serves what the chain hashed, even when a row is rewritten together with its leaf row (same xmin)', async () => {
    await kit.superuser('ALTER TABLE audit_leaves DISABLE TRIGGER USER');
    try {
      await tamper(
        kit,
        `WITH touched AS (UPDATE audit_leaves SET leaf_bytes = leaf_bytes WHERE seq = 4 RETURNING seq)
         UPDATE audit_log SET data = jsonb_set(data, '{n}', '42') FROM touched WHERE audit_log.seq = touched.seq`,
      );
    } finally {
      await kit.superuser('ALTER TABLE audit_leaves ENABLE TRIGGER USER');
    }
    expect((await kit.service.deps.db('audit_log').where({ seq: 4 }).first()).data.n).toBe(42);
    const response = await request(kit.service.url)
      .get('/api/evidence/audit/records')
      .query({ after_seq: 3, limit: 1 })
      .set('Authorization', await bearer(READ))
      .expect(200);
    const [served] = response.body.items as AuditRecord[];
    expect(served).toMatchObject({ seq: 4, data: { n: 3 } });
    expect(recordHash(served)).toBe(served.hash);
  });

  it('a deleted middle record is a gap at its seq', async () => {
    await tamper(kit, 'DELETE FROM audit_log WHERE seq = 5');
    expect((await verifyChain(kit)).first_invalid).toEqual({ seq: 5, reason: 'gap' });
  });

  it("a gap longer than a verification page (4) is a gap at its first seq, not the log's end", async () => {
    await tamper(kit, 'DELETE FROM audit_log WHERE seq BETWEEN 3 AND 8');
    expect((await verifyChain(kit)).first_invalid).toEqual({ seq: 3, reason: 'gap' });
  });

  it('two records with swapped contents are detected at the first', async () => {
    await tamper(
      kit,
      `UPDATE audit_log a SET action = b.action, entity_id = b.entity_id, actor = b.actor, data = b.data, occurred_at = b.occurred_at,
         recorded_at = b.recorded_at, prev_hash = b.prev_hash, hash = b.hash
       FROM (SELECT * FROM audit_log WHERE seq IN (3, 8)) b WHERE a.seq IN (3, 8) AND b.seq <> a.seq`,
    );
    const report = await verifyChain(kit);
    expect(report.valid).toBe(false);
    expect(report.first_invalid.seq).toBe(3);
  });

  it('a tail cut after a checkpoint is truncated', async () => {
    await tamper(kit, 'DELETE FROM audit_log WHERE seq > 8');
    const report = await verifyChain(kit);
    expect(report).toMatchObject({ valid: false, records_checked: 8, last_seq: 8, first_invalid: { seq: 9, reason: 'truncated' } });
    expect(report.checkpoint).toMatchObject({ seq: 10, signature_valid: true });
  });

  it('a tail cut with a to_seq beyond it is truncated as well, and a range before it is still valid', async () => {
    await tamper(kit, 'DELETE FROM audit_log WHERE seq > 7');
    expect((await verifyChain(kit, { from_seq: 2, to_seq: 11 })).first_invalid).toEqual({ seq: 8, reason: 'truncated' });
    expect((await verifyChain(kit, { from_seq: 2, to_seq: 6 })).valid).toBe(true);
  });

  it('recomputing every hash after an edit is caught by the signed checkpoint', async () => {
    const db = kit.service.deps.db;
    const rows = (await db('audit_log').orderBy('seq')).map((row) => ({ ...row, seq: Number(row.seq) }));
    let prev = GENESIS_HASH;
    await kit.superuser('ALTER TABLE audit_log DISABLE TRIGGER USER');
    for (const row of rows) {
      const data = row.seq === 4 ? { ...row.data, n: 42 } : row.data;
      const forged = { ...row, data, prev_hash: prev };
      forged.hash = recordHash(forged);
      await kit.superuser('UPDATE audit_log SET data = ?, prev_hash = ?, hash = ? WHERE seq = ?', [
        JSON.stringify(data),
        forged.prev_hash,
        forged.hash,
        row.seq,
      ]);
      prev = forged.hash;
    }
    await kit.superuser('ALTER TABLE audit_log ENABLE TRIGGER USER');
    expect((await verifyChain(kit)).first_invalid).toEqual({ seq: 6, reason: 'checkpoint_mismatch' });

    // Moving the checkpoint's hash along with the forgery breaks its signature instead.
    await tamper(kit, 'UPDATE audit_checkpoints c SET hash = l.hash FROM audit_log l WHERE l.seq = c.seq');
    const report = await verifyChain(kit);
    expect(report.first_invalid).toEqual({ seq: 6, reason: 'bad_signature' });
    expect(report.checkpoint).toMatchObject({ seq: 6, signature_valid: false });
  });

  it('checkpoints signed by another key are bad_signature', async () => {
    await kit.restart({ AUDIT_SIGNING_KEY: newSigningKey() });
    const report = await verifyChain(kit);
    expect(report).toMatchObject({
      valid: false,
      first_invalid: { seq: 6, reason: 'bad_signature' },
      checkpoint: { seq: 6, signature_valid: false },
    });
  });

  it('a broken link is named when a record points at the wrong predecessor', async () => {
    const row = await kit.service.deps.db('audit_log').where('seq', 7).first();
    const forged = { ...row, seq: 7, prev_hash: 'f'.repeat(64) };
    await tamper(kit, 'UPDATE audit_log SET prev_hash = ?, hash = ? WHERE seq = 7', [forged.prev_hash, recordHash(forged)]);
    expect((await verifyChain(kit)).first_invalid).toEqual({ seq: 7, reason: 'broken_link' });
  });
});

describe('audit checkpoints in the background', () => {
  let kit: AuditTestService;

  afterEach(async () => {
    await kit?.stop();
  });

  it('signs a checkpoint every AUDIT_CHECKPOINT_EVERY records with a development key generated into DATA_DIR', async () => {
    kit = await startAuditTestService({ AUDIT_CHECKPOINT_EVERY: '5' });
    await append(kit, 5);
    const checkpoints = await eventually(async () => {
      const rows = await kit.service.deps.db('audit_checkpoints');
      return rows.length > 0 && rows;
    });
    expect(Number(checkpoints[0].seq)).toBe(5);
    const report = await verifyChain(kit);
    expect(report).toMatchObject({ valid: true, checkpoint: { seq: 5, signature_valid: true } });
    // The generated key survives a restart: old checkpoints still verify.
    await kit.restart();
    expect((await verifyChain(kit)).valid).toBe(true);
  });

  it('signs a record on a quiet log within about a second, and a burst with a checkpoint per AUDIT_CHECKPOINT_DELAY_MS, not one per record', async () => {
    kit = await startAuditTestService({ AUDIT_CHECKPOINT_DELAY_MS: '300' });
    const db = kit.service.deps.db;
    const signedUpTo = async () => Number((await db('audit_checkpoints').max('seq as max').first())?.max ?? 0);
    const appendedAt = Date.now();
    await append(kit, 1);
    await eventually(async () => (await signedUpTo()) === 1, 2000);
    expect(Date.now() - appendedAt).toBeLessThan(2000);
    const response = await request(kit.service.url)
      .get('/api/evidence/audit/checkpoint')
      .set('Authorization', await bearer('audit:read', 'examiner'));
    expect(response.status).toBe(200);

    await append(kit, 60);
    await eventually(async () => (await signedUpTo()) === 61, 5000);
    const [{ count }] = await db('audit_checkpoints').count({ count: '*' });
    expect(Number(count)).toBeLessThanOrEqual(15);
  });

  it('answers GET /audit/checkpoint once the log holds a record, signing it there if the checkpointer has not yet; 404 only on an empty log', async () => {
    kit = await startAuditTestService(); // background checkpoints far off
    const read = async () =>
      request(kit.service.url)
        .get('/api/evidence/audit/checkpoint')
        .set('Authorization', await bearer(READ, 'examiner'));
    expect((await read()).status).toBe(404);
    await append(kit, 2);
    const response = await read();
    expect(response.status).toBe(200);
    expect(response.text.split('\n')[1]).toBe('2');
  });

  it('signs unsigned records every AUDIT_CHECKPOINT_INTERVAL_MS, and once more on shutdown', async () => {
    kit = await startAuditTestService({ AUDIT_CHECKPOINT_INTERVAL_MS: '200' });
    await append(kit, 2);
    await eventually(async () => Number((await kit.service.deps.db('audit_checkpoints').max('seq as max').first())?.max) === 2);
    await kit.restart({ AUDIT_CHECKPOINT_INTERVAL_MS: '3600000' });
    await append(kit, 1);
    await kit.restart();
    expect(Number((await kit.service.deps.db('audit_checkpoints').max('seq as max').first())?.max)).toBe(3);
  });
});
