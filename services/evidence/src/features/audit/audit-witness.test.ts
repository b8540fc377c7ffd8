import request from 'supertest';
import { createDatabase, type Knex } from '@platform/db';
import { parseNote } from '@platform/merkle';
import { bearer, testServiceEnv, TEST_JWT_SECRET } from '@platform/testing';
import { findCosignature, parseWitnessVerifierKey, runStandaloneWitness, witnessStore } from '@platform/witness';
import { generateKeyPairSync } from 'node:crypto';
import { appendAuditRecord } from '../../shared/audit-append';
import { canonicalRecord, chainHash, GENESIS_HASH, type AuditRecord } from '../../shared/audit-chain';
import { newSigningKey, startAuditTestService, type AuditTestService } from '../../testing/audit-test-service';
import { takeCheckpoint } from './audit-checkpoints';
import { createCheckpointSigner, parseSigningKey } from './checkpoint-signer';

const AUDIT_TABLES = ['audit_log', 'audit_checkpoints', 'audit_leaves', 'audit_tree_nodes', 'audit_cosignatures'];
const WITNESS = 'test-witness';
const witnessKey = generateKeyPairSync('ed25519').privateKey;
const witnessPkcs8 = witnessKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');

async function append(kit: AuditTestService, count: number) {
  for (let i = 0; i < count; i += 1) {
    await appendAuditRecord(kit.service.deps.db, {
      action: 'evidence.test_happened',
      source: 'evidence',
      entity_type: 'run',
      entity_id: 'run-1',
      actor: 'alice',
      data: { n: i },
    });
  }
}

/** A checkpoint signed with the service key, which the attacker of these tests has stolen. */
async function checkpoint(kit: AuditTestService) {
  return takeCheckpoint(
    kit.service.deps.db,
    createCheckpointSigner(parseSigningKey(kit.config.AUDIT_SIGNING_KEY!)),
    kit.config.EVIDENCE_EXCHANGE,
  );
}

/** As the database owner, with the append-only triggers off. */
async function asOwner(kit: AuditTestService, statements: [string, unknown[]?][]) {
  for (const table of AUDIT_TABLES) await kit.superuser(`ALTER TABLE ${table} DISABLE TRIGGER USER`);
  try {
    for (const [sql, params] of statements) await kit.superuser(sql, params ?? []);
  } finally {
    for (const table of AUDIT_TABLES) await kit.superuser(`ALTER TABLE ${table} ENABLE TRIGGER USER`);
  }
}

/** Edits record `seq`, recomputes every later hash, drops the tree and the checkpoints; the next checkpoint rebuilds and re-signs it all. */
async function rewriteHistory(kit: AuditTestService, seq: number) {
  await asOwner(kit, [[`UPDATE audit_log SET data = '{"n": 999}' WHERE seq = ?`, [seq]]]);
  const rows: AuditRecord[] = (await kit.superuser('SELECT * FROM audit_log ORDER BY seq')).rows;
  let prev = GENESIS_HASH;
  const updates: [string, unknown[]][] = [];
  for (const row of rows) {
    const record = { ...row, seq: Number(row.seq), prev_hash: prev };
    const hash = chainHash(prev, Buffer.from(canonicalRecord(record), 'utf8'));
    updates.push(['UPDATE audit_log SET prev_hash = ?, hash = ? WHERE seq = ?', [prev, hash, record.seq]]);
    prev = hash;
  }
  await asOwner(kit, [
    ...updates,
    ['DELETE FROM audit_leaves'],
    ['DELETE FROM audit_tree_nodes'],
    ['DELETE FROM audit_checkpoints'],
    ['DELETE FROM audit_cosignatures'],
  ]);
}

async function verify(kit: AuditTestService) {
  return (
    await request(kit.service.url)
      .get('/api/evidence/audit/verify')
      .set('Authorization', await bearer('audit:read'))
      .expect(200)
  ).body;
}

async function servedCheckpoint(kit: AuditTestService): Promise<string> {
  return (
    await request(kit.service.url)
      .get('/api/evidence/audit/checkpoint')
      .set('Authorization', await bearer('audit:read'))
      .expect(200)
  ).text;
}

describe('witnessed checkpoints (standalone witness, own database)', () => {
  let kit: AuditTestService;
  let witnessEnv: Awaited<ReturnType<typeof testServiceEnv>>;
  let witness: Awaited<ReturnType<typeof runStandaloneWitness>>;
  let witnessDb: Knex;

  beforeEach(async () => {
    const vkey = (await import('@platform/witness')).formatWitnessVerifierKey(WITNESS, witnessKey);
    kit = await startAuditTestService({ AUDIT_SIGNING_KEY: newSigningKey(), AUDIT_WITNESS_KEYS: vkey });
    witnessEnv = await testServiceEnv('witness', []);
    witness = await runStandaloneWitness({
      PORT: '0',
      DATABASE_URL: witnessEnv.databaseUrl,
      DATA_DIR: witnessEnv.dataDir,
      LOG_LEVEL: 'silent',
      WITNESS_EVIDENCE_URL: kit.service.url,
      WITNESS_NAME: WITNESS,
      WITNESS_KEY: witnessPkcs8,
      WITNESS_LOG_VERIFIER_KEY: createCheckpointSigner(parseSigningKey(kit.config.AUDIT_SIGNING_KEY!)).verifierKey,
      WITNESS_LOG_JWT_SECRET: TEST_JWT_SECRET,
      WITNESS_POLL_INTERVAL_MS: '3600000',
    });
    await witness.witness.pollNow(); // the poll the witness starts with, over the empty log, ends before a test appends
    witnessDb = createDatabase({ url: witnessEnv.databaseUrl, poolMax: 1 });
  });
  afterEach(async () => {
    await witness?.close();
    await witnessDb?.destroy();
    await witnessEnv?.cleanup();
    await kit?.stop();
  });

  it('cosigns each new checkpoint after checking the consistency proof, and the log serves the cosignature', async () => {
    await append(kit, 3);
    await checkpoint(kit);
    expect(await witness.witness.witness.witnessOnce()).toEqual({ outcome: 'cosigned', size: 3 });
    await append(kit, 4);
    await checkpoint(kit);
    expect(await witness.witness.witness.witnessOnce()).toEqual({ outcome: 'cosigned', size: 7 });
    expect(await witness.witness.witness.witnessOnce()).toEqual({ outcome: 'unchanged', size: 7 });

    const note = await servedCheckpoint(kit);
    const body = parseNote(note)!.text;
    const pinned = parseWitnessVerifierKey(witness.witness.verifierKey)!;
    expect(findCosignature(note, body, WITNESS, pinned.publicKey)).toBeDefined();
    expect((await request(witness.url).get('/verifier-key').expect(200)).text.trim()).toBe(witness.witness.verifierKey);
    expect((await verify(kit)).valid).toBe(true);
  });

  it('refuses a history rewritten and re-signed with the stolen key, keeps the evidence, and verify reports witness_refused', async () => {
    await append(kit, 5);
    await checkpoint(kit);
    await witness.witness.witness.witnessOnce();
    const cosigned = await servedCheckpoint(kit);

    await rewriteHistory(kit, 2);
    await append(kit, 1);
    await checkpoint(kit);
    expect((await verify(kit)).valid).toBe(true); // the chain alone cannot tell: it was rehashed and re-signed

    expect(await witness.witness.witness.witnessOnce()).toEqual({ outcome: 'refused', reason: 'inconsistent', size: 6 });
    const [refusal] = await witnessStore(witnessDb).refusals(witness.witness.witness.origin);
    expect(refusal).toMatchObject({ reason: 'inconsistent', cosigned_note: cosigned, offered_note: await servedCheckpoint(kit) });
    expect(refusal.proof?.length).toBeGreaterThan(0);
    expect(await witness.witness.witness.witnessOnce()).toEqual({ outcome: 'refused', reason: 'inconsistent', size: 6 });
    expect(await witnessStore(witnessDb).refusals(witness.witness.witness.origin)).toHaveLength(1); // alerted once
    expect((await request(witness.url).get('/metrics').expect(200)).text).toMatch(
      /witness_consistency_failures_total\{reason="inconsistent"\} 1/,
    );

    const report = await verify(kit);
    expect(report).toMatchObject({ valid: false, first_invalid: { seq: 6, reason: 'witness_refused' } });
  });

  it('refuses a fork: a checkpoint of the size it cosigned over another root, re-signed with the stolen key', async () => {
    await append(kit, 5);
    await checkpoint(kit);
    expect(await witness.witness.witness.witnessOnce()).toEqual({ outcome: 'cosigned', size: 5 });
    const cosigned = await servedCheckpoint(kit);

    await rewriteHistory(kit, 3);
    await checkpoint(kit);
    const forked = await servedCheckpoint(kit);
    expect(forked.split('\n')[1]).toBe('5');
    expect(forked.split('\n')[2]).not.toBe(cosigned.split('\n')[2]);

    expect(await witness.witness.witness.witnessOnce()).toEqual({ outcome: 'refused', reason: 'forked', size: 5 });
    const [refusal] = await witnessStore(witnessDb).refusals(witness.witness.witness.origin);
    expect(refusal).toMatchObject({ reason: 'forked', cosigned_note: cosigned, offered_note: forked });
    expect(await verify(kit)).toMatchObject({ valid: false, first_invalid: { seq: 5, reason: 'witness_refused' } });
  });

  it('refuses a truncated log whose checkpoints were deleted and re-signed', async () => {
    await append(kit, 6);
    await checkpoint(kit);
    await witness.witness.witness.witnessOnce();

    await asOwner(kit, [
      ['DELETE FROM audit_log WHERE seq > 4'],
      ['DELETE FROM audit_leaves WHERE seq > 4'],
      ['DELETE FROM audit_tree_nodes WHERE (idx + 1) * (1::bigint << level) > 4'],
      ['DELETE FROM audit_checkpoints'],
      ['DELETE FROM audit_cosignatures'],
    ]);
    await checkpoint(kit);
    expect(await witness.witness.witness.witnessOnce()).toEqual({ outcome: 'refused', reason: 'truncated', size: 4 });
    expect(await verify(kit)).toMatchObject({ valid: false, first_invalid: { seq: 4, reason: 'witness_refused' } });
  });
});

describe('witness endpoints of the evidence service', () => {
  let kit: AuditTestService;
  beforeAll(async () => {
    kit = await startAuditTestService({
      AUDIT_SIGNING_KEY: newSigningKey(),
      AUDIT_WITNESS_KEYS: (await import('@platform/witness')).formatWitnessVerifierKey(WITNESS, witnessKey),
    });
    await append(kit, 2);
    await checkpoint(kit);
  });
  afterAll(async () => {
    await kit?.stop();
  });

  const post = async (path: string, body: unknown, scope = 'audit:witness') =>
    request(kit.service.url)
      .post(`/api/evidence/audit${path}`)
      .set('Authorization', await bearer(scope))
      .send(body as object);

  it('refuses cosignatures that do not verify, come from an unknown witness, or name no checkpoint, as problems', async () => {
    const { cosign } = await import('@platform/witness');
    const body = parseNote(await servedCheckpoint(kit))!.text;
    const stranger = cosign(body, 'stranger', generateKeyPairSync('ed25519').privateKey, 1700000000).line;
    const forged = cosign(body, WITNESS, generateKeyPairSync('ed25519').privateKey, 1700000000).line;
    const good = cosign(body, WITNESS, witnessKey, 1700000000).line;
    expect((await post('/checkpoints/2/cosignatures', { cosignature: good }, 'audit:read')).status).toBe(403);
    expect((await post('/checkpoints/2/cosignatures', { cosignature: 'nonsense' })).status).toBe(400);
    expect((await post('/checkpoints/2/cosignatures', { cosignature: stranger })).status).toBe(422);
    expect((await post('/checkpoints/2/cosignatures', { cosignature: forged })).status).toBe(422);
    expect((await post('/checkpoints/9/cosignatures', { cosignature: good })).status).toBe(404);
    const created = await post('/checkpoints/2/cosignatures', { cosignature: good });
    expect(created.status).toBe(201);
    expect(created.headers['content-type']).toMatch(/json/);
    expect((await post('/checkpoints/2/cosignatures', { cosignature: good })).status).toBe(200);
    expect((await servedCheckpoint(kit)).endsWith(good)).toBe(true);
    const problem = await post('/checkpoints/2/cosignatures', { cosignature: stranger });
    expect(problem.headers['content-type']).toMatch(/application\/problem\+json/);
    const [{ count }] = await kit.service.deps.db('audit_witness_refusals').count({ count: '*' });
    expect(Number(count)).toBe(0);
  });
});
