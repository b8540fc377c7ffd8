import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { runService, type RunningService } from '@platform/runtime';
import { bearer } from '@platform/testing';
import { claimsService } from '../../service';
import { fileClaim, startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { insertTestClaim } from '../../testing/workflow-fixtures';
import { indexClaimantName, NAME_INDEX_KEY_NAME, nameIndexKey } from './claimant-name-index';

/** The claims found by a search of the claims list at `url`. */
async function found(url: string, q: string): Promise<string[]> {
  const { body } = await request(url)
    .get('/api/claims/claims')
    .query({ q })
    .set('Authorization', await bearer('claims:read', 'alice'))
    .expect(200);
  return body.items.map((item: { claim_id: string }) => item.claim_id);
}

describe('the name index key: one for every replica, kept in the database', () => {
  let t: ClaimsTestService;
  let replica: RunningService | undefined;
  const keyDir = mkdtempSync(path.join(tmpdir(), 'claims-kek-'));
  const replicaDataDir = mkdtempSync(path.join(tmpdir(), 'claims-replica-'));
  const kekFile = path.join(keyDir, 'kek');
  writeFileSync(kekFile, `${randomBytes(32).toString('base64')}\n`, { mode: 0o400 });

  beforeAll(async () => {
    // both replicas are given the same key-encryption key, as one mounted Secret does
    t = await startClaimsTestService({ PRIVACY_KEK_FILE: kekFile });
    const config = { ...t.config, DATA_DIR: replicaDataDir };
    replica = await runService(claimsService(config), config);
  });
  afterAll(async () => {
    await replica?.close();
    await t?.stop();
    rmSync(keyDir, { recursive: true, force: true });
    rmSync(replicaDataDir, { recursive: true, force: true });
  });

  it('finds on one replica a name another indexed, with the key stored once, wrapped, and no key file in either DATA_DIR', async () => {
    const { claim_id } = await fileClaim(t.url, { claimant: { name: 'Philippa Ashdown', email: 'philippa@example.org' } });
    expect(await found(replica!.url, 'Philipa Ashdown')).toEqual([claim_id]);
    const filedThere = await fileClaim(replica!.url, { claimant: { name: 'Ignatius Wobbleton', email: 'ignatius@example.org' } });
    expect(await found(t.url, 'Ignatius Woblleton')).toEqual([filedThere.claim_id]);

    const rows = await t.db('privacy_keys').where({ name: NAME_INDEX_KEY_NAME }).select('wrapped_key', 'kek_id');
    expect(rows).toEqual([{ wrapped_key: expect.any(String), kek_id: expect.stringMatching(/^local:/) }]);
    const key = await nameIndexKey(t.privacy, t.dataDir).on();
    expect(key).toHaveLength(32);
    expect(rows[0].wrapped_key).not.toContain(key.toString('base64url'));
    for (const dataDir of [t.dataDir, replicaDataDir]) {
      expect(existsSync(path.join(dataDir, 'claims', 'name-index.key'))).toBe(false);
      expect(existsSync(path.join(dataDir, 'claims', 'privacy-kek.key'))).toBe(false);
    }
  });
});

describe('the name index key of a deployment that kept it in a file', () => {
  let t: ClaimsTestService;
  afterAll(async () => {
    await t?.stop();
  });

  it('is stored as the key when the database holds none, so the names indexed under it are still found', async () => {
    t = await startClaimsTestService();
    // the service makes its key when it first needs one: the earlier version's file, and a name it indexed, are there before
    const fileKey = randomBytes(32);
    mkdirSync(path.join(t.dataDir, 'claims'), { recursive: true });
    writeFileSync(path.join(t.dataDir, 'claims', 'name-index.key'), fileKey.toString('base64'), { mode: 0o600 });
    const earlier = await insertTestClaim(t.db);
    await indexClaimantName(t.db, earlier.claim_id, 'Octavia Pennyworth', fileKey);
    expect(await t.db('privacy_keys').where({ name: NAME_INDEX_KEY_NAME })).toEqual([]);

    expect(await found(t.url, 'Octavia Penyworth')).toEqual([earlier.claim_id]);
    const { claim_id } = await fileClaim(t.url, { claimant: { name: 'Octavia Pennyworth', email: 'octavia@example.org' } });
    expect((await found(t.url, 'Octavia Penyworth')).sort()).toEqual([earlier.claim_id, claim_id].sort());
    expect((await nameIndexKey(t.privacy, t.dataDir).on()).equals(fileKey)).toBe(true);
  });
});
