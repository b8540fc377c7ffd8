import request from 'supertest';
import { canonicalJson } from '@platform/canonical-json';
import { hashLeaf, parseCheckpoint, parseVerifierKey, verifyConsistency, verifyInclusion, verifyNote } from '@platform/merkle';
import { bearer } from '@platform/testing';
import { appendAuditRecord } from '../../shared/audit-append';
import { takeCheckpoint } from './audit-checkpoints';
import { createCheckpointSigner, parseSigningKey } from './checkpoint-signer';
import { newSigningKey, startAuditTestService, type AuditTestService } from '../../testing/audit-test-service';

const READ = 'audit:read';
const TREE_TABLES = ['audit_log', 'audit_checkpoints', 'audit_leaves', 'audit_tree_nodes'];

async function append(kit: AuditTestService, count: number) {
  for (let i = 0; i < count; i += 1) {
    await appendAuditRecord(kit.service.deps.db, {
      action: 'evidence.test_happened',
      source: 'evidence',
      entity_type: 'run',
      entity_id: 'run-1',
      actor: 'alice',
      data: { n: i, note: 'é ✓ "quoted"', nested: { b: 1, a: [1.5, null, true] } },
    });
  }
}

async function checkpoint(kit: AuditTestService) {
  return takeCheckpoint(
    kit.service.deps.db,
    createCheckpointSigner(parseSigningKey(kit.config.AUDIT_SIGNING_KEY!)),
    kit.config.EVIDENCE_EXCHANGE,
  );
}

async function get(kit: AuditTestService, path: string, status: number, query: Record<string, string | number> = {}) {
  return request(kit.service.url)
    .get(`/api/evidence/audit${path}`)
    .query(query)
    .set('Authorization', await bearer(READ))
    .expect(status);
}

/** As a database owner would: with the append-only triggers of the log and its tree off. */
async function tamper(kit: AuditTestService, sql: string, params: unknown[] = []) {
  for (const table of TREE_TABLES) await kit.superuser(`ALTER TABLE ${table} DISABLE TRIGGER USER`);
  try {
    await kit.superuser(sql, params);
  } finally {
    for (const table of TREE_TABLES) await kit.superuser(`ALTER TABLE ${table} ENABLE TRIGGER USER`);
  }
}

describe('the audit log as a Merkle tree', () => {
  let kit: AuditTestService;

  beforeEach(async () => {
    kit = await startAuditTestService({ AUDIT_SIGNING_KEY: newSigningKey(), AUDIT_VERIFY_PAGE_SIZE: '4' });
  });
  afterEach(async () => {
    await kit?.stop();
  });

  it('documents the checkpoint and proof operations behind audit:read', async () => {
    const doc = (await request(kit.service.url).get('/openapi.json').expect(200)).body;
    for (const path of ['/audit/checkpoint', '/audit/proofs/inclusion', '/audit/proofs/consistency']) {
      expect(doc.paths[path].get.security).toEqual([{ bearerJwt: ['audit:read'] }]);
      expect(Object.keys(doc.paths[path].get.responses)).toEqual(expect.arrayContaining(['200', '401', '403']));
    }
    expect(Object.keys(doc.paths['/audit/checkpoint'].get.responses['200'].content)).toEqual(['text/plain']);
    expect(doc.paths['/audit/proofs/inclusion'].get.responses['400']).toBeDefined();
  });

  it('names the verifier keys to pin (the service key, no witness here) to whoever may download a binder, and no one else', async () => {
    const serviceKey = (await get(kit, '/public-key', 200)).headers['x-audit-verifier-key'];
    for (const scope of ['audit:read', 'evidence:approve', 'evidence:write']) {
      const keys = await request(kit.service.url)
        .get('/api/evidence/audit/verifier-keys')
        .set('Authorization', await bearer(scope))
        .expect(200);
      expect(keys.body).toEqual({ service: serviceKey, witnesses: [] });
    }
    expect(parseVerifierKey(serviceKey)).not.toBeNull();
    await request(kit.service.url)
      .get('/api/evidence/audit/verifier-keys')
      .set('Authorization', await bearer('claims:read'))
      .expect(403);
    await request(kit.service.url).get('/api/evidence/audit/verifier-keys').expect(401);
  });

  it('serves no checkpoint before one is taken (404 problem)', async () => {
    const response = await get(kit, '/checkpoint', 404);
    expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
  });

  it('proves every record into signed checkpoints an examiner checks with the pinned key alone', async () => {
    await append(kit, 7);
    await checkpoint(kit);
    await append(kit, 6);
    await checkpoint(kit);
    const { keyName, publicKey } = parseVerifierKey((await get(kit, '/public-key', 200)).headers['x-audit-verifier-key'])!;
    const noteResponse = await get(kit, '/checkpoint', 200);
    expect(noteResponse.headers['content-type']).toBe('text/plain; charset=utf-8');
    const head = parseCheckpoint(verifyNote(noteResponse.text, keyName, publicKey)!)!;
    expect(head).toMatchObject({ origin: keyName, size: 13 });
    const older = (await get(kit, '/checkpoints', 200)).body.items[0];
    const olderHead = parseCheckpoint(verifyNote(older.note, keyName, publicKey)!)!;
    expect(olderHead.size).toBe(7);

    const records = (await get(kit, '/records', 200, { limit: 500 })).body.items;
    for (const { hash: _hash, ...record } of records) {
      const leafHash = hashLeaf(Buffer.from(canonicalJson(record), 'utf8'));
      const proof = (await get(kit, '/proofs/inclusion', 200, { index: record.seq - 1, tree_size: 13 })).body;
      expect(proof).toMatchObject({ leaf_index: record.seq - 1, tree_size: 13, leaf_hash: leafHash.toString('base64') });
      const path = proof.proof.map((hash: string) => Buffer.from(hash, 'base64'));
      expect(verifyInclusion(record.seq - 1, 13, leafHash, path, head.rootHash)).toBe(true);
    }
    const consistency = (await get(kit, '/proofs/consistency', 200, { from: 7, to: 13 })).body;
    expect(consistency.from).toBe(7);
    const path = consistency.proof.map((hash: string) => Buffer.from(hash, 'base64'));
    expect(verifyConsistency(7, 13, path, olderHead.rootHash, head.rootHash)).toBe(true);
    expect((await get(kit, '/verify', 200)).body).toMatchObject({
      valid: true,
      records_checked: 13,
      checkpoint: { seq: 13, signature_valid: true },
    });
  });

  it.each([
    ['/proofs/inclusion', { index: 3, tree_size: 3 }, '/index'],
    ['/proofs/inclusion', { index: 0, tree_size: 6 }, '/tree_size'],
    ['/proofs/inclusion', { index: -1, tree_size: 2 }, '/index'],
    ['/proofs/inclusion', { index: 'x', tree_size: 2 }, '/index'],
    ['/proofs/inclusion', { tree_size: 2 }, ''],
    ['/proofs/consistency', { from: 4, to: 3 }, '/from'],
    ['/proofs/consistency', { from: 1, to: 6 }, '/to'],
    ['/proofs/consistency', { from: 0, to: 3 }, '/from'],
    ['/proofs/consistency', { from: 1, to: 2, extra: 1 }, ''],
  ])('%s?%j is a 400 problem', async (path, query, pointer) => {
    await append(kit, 5);
    const response = await get(kit, path, 400, query);
    expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
    if (pointer) expect(response.body.errors.map((error: { pointer: string }) => error.pointer)).toContain(pointer);
  });

  it('catches up records from before the tree once, to the same tree', async () => {
    await append(kit, 5);
    await checkpoint(kit);
    const before = parseCheckpoint((await get(kit, '/checkpoint', 200)).text.split('\n\n')[0] + '\n')!;
    await tamper(kit, 'DELETE FROM audit_tree_nodes');
    await tamper(kit, 'DELETE FROM audit_leaves');
    await tamper(kit, 'UPDATE audit_checkpoints SET note = NULL'); // as checkpoints taken before migration 0008
    expect((await get(kit, '/verify', 200)).body).toMatchObject({ valid: true, records_checked: 5 });
    await append(kit, 1);
    expect(Number((await kit.service.deps.db('audit_leaves').count('* as n').first())?.n)).toBe(6);
    await checkpoint(kit);
    const after = parseCheckpoint((await get(kit, '/checkpoint', 200)).text.split('\n\n')[0] + '\n')!;
    expect([before.size, after.size]).toEqual([5, 6]);
    const proof = (await get(kit, '/proofs/consistency', 200, { from: 5, to: 6 })).body.proof.map((hash: string) =>
      Buffer.from(hash, 'base64'),
    );
    expect(verifyConsistency(5, 6, proof, before.rootHash, after.rootHash)).toBe(true);
    expect((await get(kit, '/verify', 200)).body).toMatchObject({ valid: true, records_checked: 6 });
  });

  it('appends read no tree node while the head is the one this process appended, and the frontier again after another writer', async () => {
    const db = kit.service.deps.db;
    const nodeReads: string[] = [];
    const onQuery = (query: { sql: string }) => {
      if (/^select/i.test(query.sql) && query.sql.includes('audit_tree_nodes')) nodeReads.push(query.sql);
    };
    db.on('query', onQuery);
    try {
      await append(kit, 1);
      nodeReads.length = 0;
      await append(kit, 6);
      expect(nodeReads).toEqual([]);
      // Another replica: its own copy of the module, so its own cache; the head it leaves is not ours.
      let replica: typeof import('../../shared/audit-append') | undefined;
      jest.isolateModules(() => {
        replica = require('../../shared/audit-append');
      });
      expect(replica!.appendAuditRecord).not.toBe(appendAuditRecord);
      await replica!.appendAuditRecord(db, {
        action: 'evidence.test_happened',
        source: 'evidence',
        entity_type: 'run',
        entity_id: 'run-2',
        actor: 'bob',
        data: {},
      });
      nodeReads.length = 0;
      await append(kit, 2);
      expect(nodeReads).toHaveLength(1);
    } finally {
      db.off('query', onQuery);
    }
    await checkpoint(kit);
    expect((await get(kit, '/verify', 200)).body).toMatchObject({ valid: true, records_checked: 10, checkpoint: { seq: 10 } });
  });

  describe('tampering with the tree', () => {
    beforeEach(async () => {
      await append(kit, 6);
      await checkpoint(kit);
      await append(kit, 3);
    });

    it('edited stored bytes are a tree_mismatch at their record', async () => {
      await tamper(
        kit,
        `UPDATE audit_leaves SET leaf_bytes = convert_to(replace(convert_from(leaf_bytes, 'UTF8'), '"n":2', '"n":9'), 'UTF8') WHERE seq = 3`,
      );
      expect((await get(kit, '/verify', 200)).body.first_invalid).toEqual({ seq: 3, reason: 'tree_mismatch' });
    });

    it('a missing leaf is a tree_mismatch', async () => {
      await tamper(kit, 'DELETE FROM audit_leaves WHERE seq = 2');
      expect((await get(kit, '/verify', 200)).body.first_invalid).toEqual({ seq: 2, reason: 'tree_mismatch' });
    });

    it('an edited stored subtree is a tree_mismatch at the checkpoint over it', async () => {
      await tamper(kit, 'UPDATE audit_tree_nodes SET hash = sha256(hash) WHERE level = 2 AND idx = 0');
      expect((await get(kit, '/verify', 200)).body.first_invalid).toEqual({ seq: 6, reason: 'tree_mismatch' });
    });

    it('a record rewritten and rehashed after the last checkpoint no longer matches its leaf', async () => {
      const row = await kit.service.deps.db('audit_log').where('seq', 9).first();
      const { recordHash } = await import('../../shared/audit-chain');
      const forged = { ...row, seq: 9, actor: 'mallory' };
      await tamper(kit, 'UPDATE audit_log SET actor = ?, hash = ? WHERE seq = 9', [forged.actor, recordHash(forged)]);
      expect((await get(kit, '/verify', 200)).body.first_invalid).toEqual({ seq: 9, reason: 'tree_mismatch' });
    });

    it('a tree head signed over another root is a checkpoint_mismatch', async () => {
      const signer = createCheckpointSigner(parseSigningKey(kit.config.AUDIT_SIGNING_KEY!));
      await tamper(kit, 'UPDATE audit_checkpoints SET note = ? WHERE seq = 6', [signer.signTreeHead(6, Buffer.alloc(32))]);
      expect((await get(kit, '/verify', 200)).body.first_invalid).toEqual({ seq: 6, reason: 'checkpoint_mismatch' });
    });

    it('a tree head signed by another key is a bad_signature', async () => {
      const other = createCheckpointSigner(parseSigningKey(newSigningKey()));
      const note = (await kit.service.deps.db('audit_checkpoints').where('seq', 6).first()).note as string;
      const [size, root] = note.split('\n').slice(1, 3);
      await tamper(kit, 'UPDATE audit_checkpoints SET note = ? WHERE seq = 6', [
        other.signTreeHead(Number(size), Buffer.from(root, 'base64')),
      ]);
      expect((await get(kit, '/verify', 200)).body.first_invalid).toEqual({ seq: 6, reason: 'bad_signature' });
    });
  });
});
