import type { Knex } from '@platform/db';
import { messagingMigrations } from '@platform/messaging';
import { DATABASE_MODES, itPassesOnEmbeddedToo, openModeDatabase, type ModeDatabase } from '@platform/testing';
import { claimsMigrations } from '../../migrations';
import { insertTestClaim } from '../../testing/workflow-fixtures';
import { accessLogStore } from './access-log-store';

const CASES = 2;

/** The access log's rows, events and append-only rule on both databases the platform runs on (PGlite: in a child jest). */
describe.each(DATABASE_MODES)('the access log on %s', (mode) => {
  let db: Knex;
  let database: ModeDatabase | undefined;

  beforeAll(async () => {
    database = await openModeDatabase(mode, 'claimsaccesslog', [...messagingMigrations, ...claimsMigrations]);
    db = database.db;
  }, 120000);
  afterAll(() => database?.close());

  it('records a read of several claims as one row and one outbox event each, sensitive where an injury is', async () => {
    const injured = (await insertTestClaim(db, { injuries: true })).claim_id;
    const plain = (await insertTestClaim(db, { injuries: false })).claim_id;
    await accessLogStore(db).record('claims.events', { actor: 'privacy-pat', purpose: 'Subject access request 12' }, 'export', [
      injured,
      plain,
    ]);
    const rows = await db('claim_access_log')
      .whereIn('claim_id', [injured, plain])
      .select('claim_id', 'actor', 'kind', 'purpose', 'sensitive');
    expect(rows.sort((a, b) => Number(b.sensitive) - Number(a.sensitive))).toEqual([
      { claim_id: injured, actor: 'privacy-pat', kind: 'export', purpose: 'Subject access request 12', sensitive: true },
      { claim_id: plain, actor: 'privacy-pat', kind: 'export', purpose: 'Subject access request 12', sensitive: false },
    ]);
    const events: { payload: { data: Record<string, unknown> } }[] = await db('outbox')
      .where({ routing_key: 'claim.personal_data_accessed' })
      .select('payload');
    expect(events.map((event) => event.payload.data).sort((a, b) => Number(b.sensitive) - Number(a.sensitive))).toMatchObject([
      { claim_id: injured, kind: 'export', purpose_given: true, sensitive: true },
      { claim_id: plain, kind: 'export', purpose_given: true, sensitive: false },
    ]);
    expect(JSON.stringify(events)).not.toContain('Subject access request 12');
  });

  it('refuses to change or delete a row', async () => {
    const claimId = (await insertTestClaim(db)).claim_id;
    await accessLogStore(db).record('claims.events', { actor: 'viewer-vic', purpose: null }, 'claim_file', [claimId]);
    await expect(db('claim_access_log').where({ claim_id: claimId }).update({ purpose: 'rewritten' })).rejects.toThrow(/append-only/);
    await expect(db('claim_access_log').where({ claim_id: claimId }).delete()).rejects.toThrow(/append-only/);
    expect((await accessLogStore(db).listOfClaim(claimId, { limit: 25 })).items).toMatchObject([
      { actor: 'viewer-vic', purpose: null, kind: 'claim_file' },
    ]);
  });

  if (mode === 'postgres') itPassesOnEmbeddedToo(__filename, 'the access log on embedded', CASES);
});
