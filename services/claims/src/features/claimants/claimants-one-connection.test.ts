import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Knex } from '@platform/db';
import { messagingMigrations } from '@platform/messaging';
import { localKeyVault } from '@platform/privacy';
import { DATABASE_MODES, openModeDatabase, type ModeDatabase } from '@platform/testing';
import { claimsMigrations } from '../../migrations';
import { claimantPrivacy } from './claimant-keys';

/**
 * The embedded start's database has one connection, which the intake's transaction holds while it matches the
 * claimant: matching must need no other (on PostgreSQL, a pool of one connection shows the same).
 */
describe.each(DATABASE_MODES)('matching a claimant inside a transaction with one connection, on %s', (mode) => {
  let db: Knex;
  let database: ModeDatabase | undefined;
  const dir = mkdtempSync(path.join(tmpdir(), 'claimants-one-connection-'));
  const vault = () => localKeyVault(path.join(dir, 'kek.key'));

  beforeAll(async () => {
    database = await openModeDatabase(mode, 'claimantsoneconn', [...messagingMigrations, ...claimsMigrations], { poolMax: 1 });
    db = database.db;
  }, 120000);
  afterAll(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('matches on a fresh start, where a rolled-back intake made the blind-index key, a returning claimant after a restart, and reads a key on the caller’s transaction', async () => {
    // both: the phone's index is made after the email's, on the transaction that made the key
    const contact = { email: 'ivo.brandt@example.org', phone: '+4915112345678' };
    const started = claimantPrivacy(db, vault(), true);
    await expect(
      db.transaction(async (trx) => {
        await started.claimantOf(trx, contact);
        throw new Error('the intake failed after matching');
      }),
    ).rejects.toThrow('the intake failed after matching');
    const first = await db.transaction((trx) => started.claimantOf(trx, contact));
    // the key the rolled-back intake made is not the one kept: a restart indexes the email as it was stored
    const restarted = claimantPrivacy(db, vault(), true);
    const stored = await db('claimants').where({ id: first.claimantId }).first('email_index');
    expect(await restarted.emailIndex(contact.email)).toBe(stored.email_index);
    const again = await db.transaction((trx) => claimantPrivacy(db, vault(), true).claimantOf(trx, contact));
    expect(again.claimantId).toBe(first.claimantId);
    expect(again.key).toEqual(first.key);
    expect(first.key).toHaveLength(32);
    // a change inside a transaction reads the key on it (a status update sealing its texts, a withdrawal, a kit)
    const inTransaction = await db.transaction((trx) => claimantPrivacy(db, vault(), true).keys.keyFor(first.claimantId, trx));
    expect(inTransaction).toEqual(first.key);
  }, 30000);

  it('gives a claimant filed while encryption was off a key only when the intake that made it commits', async () => {
    const contact = { email: 'lena.vogt@example.org', phone: null };
    const filedPlain = await db.transaction((trx) => claimantPrivacy(db, vault(), false).claimantOf(trx, contact));
    expect(filedPlain.key).toBeNull();
    const encrypting = claimantPrivacy(db, vault(), true);
    await expect(
      db.transaction(async (trx) => {
        expect((await encrypting.claimantOf(trx, contact)).key).toHaveLength(32);
        throw new Error('the intake failed after matching');
      }),
    ).rejects.toThrow('the intake failed after matching');
    // the rolled-back key was never stored: nothing may be sealed with it (an update of the earlier claim)
    expect(await encrypting.keys.keyFor(filedPlain.claimantId)).toBeNull();
    const committed = await db.transaction((trx) => encrypting.claimantOf(trx, contact));
    expect(await encrypting.keys.keyFor(filedPlain.claimantId)).toEqual(committed.key);
  }, 30000);
});
