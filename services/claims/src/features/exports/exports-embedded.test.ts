import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { Knex } from '@platform/db';
import { messagingMigrations } from '@platform/messaging';
import { DATABASE_MODES, itPassesOnEmbeddedToo, openModeDatabase, type ModeDatabase } from '@platform/testing';
import { claimsMigrations } from '../../migrations';
import { insertTestClaim } from '../../testing/workflow-fixtures';
import { zipEntries } from '../../testing/zip-entries';
import { issueExportDownloadToken } from '../../shared/export-download-token';
import { claimantPrivacyFor } from '../claimants';
import { claimFiles } from '../attachments';
import { openExportArchive } from './export-archive';
import { buildDueExports, EXPORT_LEASE_SECONDS } from './export-builder';
import { exportStorage } from './export-storage';
import { exportsStore } from './exports-store';

const CASES = 2;
const silent = pino({ level: 'silent' });
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The export job table, its leases and the builder on both databases the platform runs on (PGlite: in a child jest). */
describe.each(DATABASE_MODES)('claimant exports on %s', (mode) => {
  let db: Knex;
  let database: ModeDatabase | undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'claims-exports-'));

  beforeAll(async () => {
    database = await openModeDatabase(mode, 'claimsexports', [...messagingMigrations, ...claimsMigrations]);
    db = database.db;
  }, 120000);
  afterAll(async () => {
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const settings = () => {
    const storage = exportStorage({ OBJECT_STORE_REGION: 'us-east-1' }, dataDir);
    const config = { OBJECT_STORE_REGION: 'us-east-1', PRIVACY_ENCRYPTION: true, KEY_VAULT: 'local' };
    const keys = claimantPrivacyFor({ db, dataDir }, config).keys;
    return {
      storage,
      keys,
      build: {
        attachments: claimFiles({ db, dataDir }, config),
        exports: storage,
        keys,
        afterReady: () => undefined,
      },
    };
  };
  const claimantOf = async (claimId: string) => (await db('claims').where({ id: claimId }).first('claimant_id')).claimant_id as string;

  it('builds a queued export into a stored zip whose SHA256SUMS match, counting its parts', async () => {
    const claim = await insertTestClaim(db, { description: 'Hail on the roof' });
    const claimantId = await claimantOf(claim.claim_id);
    const queued = await exportsStore(db).insert({ claimantId, requestedBy: 'privacy-pat', viaClaimId: null, includeInternalNotes: false });
    const { storage, keys, build } = settings();
    expect(await buildDueExports(db, build, silent)).toBe(1);
    const row = (await exportsStore(db).find(queued.id))!;
    expect(row).toMatchObject({ status: 'ready', progress_done: 1, progress_total: 1, claim_ids: [claim.claim_id], attempts: 1 });
    const zip = await zipEntries(Buffer.concat(await (await openExportArchive(storage, keys, row)).toArray()));
    const sums = zip.get('SHA256SUMS')!.toString('utf8').trim().split('\n');
    expect(sums.length).toBe(zip.size - 1);
    for (const line of sums) {
      const [sum, name] = line.split('  ');
      expect({ name, sum }).toEqual({ name, sum: sha256(zip.get(name)!) });
    }
    expect(JSON.parse(zip.get(`claims/${claim.claim_number}/claim.json`)!.toString('utf8')).loss.description).toBe('Hail on the roof');
    expect(await buildDueExports(db, build, silent)).toBe(0);
  });

  it('leases only a build whose lease ran out, keeps one open claimant request per claimant, and spends a download token once', async () => {
    const claim = await insertTestClaim(db);
    const claimantId = await claimantOf(claim.claim_id);
    const store = exportsStore(db);
    const request = () => store.insert({ claimantId, requestedBy: 'claimant', viaClaimId: claim.claim_id, includeInternalNotes: false });
    const first = await request();
    await expect(request()).rejects.toMatchObject({ constraint: 'claimant_exports_one_open_request' });

    const leased = (await store.leaseNext(EXPORT_LEASE_SECONDS))!;
    expect(leased).toMatchObject({ id: first.id, status: 'building', attempts: 1 });
    expect(await store.leaseNext(EXPORT_LEASE_SECONDS)).toBeUndefined();
    await db('claimant_exports')
      .where({ id: first.id })
      .update({ lease_until: db.raw("clock_timestamp() - interval '1 second'") });
    expect(await store.leaseNext(EXPORT_LEASE_SECONDS)).toMatchObject({ id: first.id, attempts: 2 });

    expect(await issueExportDownloadToken(db, first.id, 1)).toBeUndefined();
    await store.plan(first.id, [claim.claim_id], 1);
    expect(await store.markReady(first.id, { sha256: 'a'.repeat(64), size: 1 })).toBe(true);
    expect(await issueExportDownloadToken(db, first.id, 1)).toMatchObject({ token: expect.any(String) });
    expect(await store.spendDownloadToken(first.id)).toBe(true);
    expect(await store.spendDownloadToken(first.id)).toBe(false);
    expect((await request()).id).not.toBe(first.id);
    expect(await store.find(randomUUID())).toBeUndefined();
  });

  if (mode === 'postgres') itPassesOnEmbeddedToo(__filename, 'claimant exports on embedded', CASES);
});
