import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from '@platform/db';
import { messagingMigrations } from '@platform/messaging';
import { keyRing, localKeyVault } from '@platform/privacy';
import { DATABASE_MODES, itPassesOnEmbeddedToo, openModeDatabase, type ModeDatabase } from '@platform/testing';
import { claimsMigrations } from '../../migrations';
import { claimantPrivacy } from './claimant-keys';
import { keyVaultFrom } from './claimant-vault';

const CASES = 2;

/** A KEK rotation: the new KEK current, the old one retired, every key rewrapped, then the old one removed. */
describe.each(DATABASE_MODES)('a key-encryption key rotation on %s', (mode) => {
  let database: ModeDatabase | undefined;
  let db: Knex;
  let dir: string;
  const kekFile = (name: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    return file;
  };
  const local = (file: string) => localKeyVault(file, { generate: false });
  const wrappedBy = async () =>
    (await db('claimants').whereNotNull('wrapped_key').pluck('kek_id')).concat(await db('privacy_keys').pluck('kek_id'));

  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'kek-rotation-'));
    database = await openModeDatabase(mode, 'claimskekrotation', [...messagingMigrations, ...claimsMigrations]);
    db = database.db;
  }, 120000);
  afterEach(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens keys the retired KEK wrapped, rewraps every one with the current KEK (data keys unchanged), and then needs the old KEK no more', async () => {
    const [oldFile, newFile] = [kekFile('old.key'), kekFile('new.key')];
    const before = claimantPrivacy(db, local(oldFile), true);
    const claimants: { claimantId: string; key: Buffer | null }[] = [];
    for (const n of [1, 2, 3])
      claimants.push(await db.transaction((trx) => before.claimantOf(trx, { email: `rotation-${n}@example.org`, phone: null })));
    expect(new Set(await wrappedBy())).toEqual(new Set([local(oldFile).kekId]));

    const rotated = claimantPrivacy(
      db,
      keyVaultFrom(
        { PRIVACY_ENCRYPTION: true, KEY_VAULT: 'local', PRIVACY_KEK_FILE: newFile, PRIVACY_RETIRED_KEK_FILES: ` ${oldFile} ,` },
        dir,
      ),
      true,
    );
    expect((await rotated.keys.keyFor(claimants[0].claimantId))!.equals(claimants[0].key!)).toBe(true);
    // three data keys and the blind-index key
    expect(await rotated.rewrapKeys()).toEqual({ rewrapped: 4, failed: [] });
    expect(new Set(await wrappedBy())).toEqual(new Set([local(newFile).kekId]));
    expect(await rotated.rewrapKeys()).toEqual({ rewrapped: 0, failed: [] });

    const afterwards = claimantPrivacy(db, local(newFile), true);
    for (const claimant of claimants) expect((await afterwards.keys.keyFor(claimant.claimantId))!.equals(claimant.key!)).toBe(true);
    // the blind-index key is the same too: a returning claimant is still matched
    const returning = await db.transaction((trx) => afterwards.claimantOf(trx, { email: 'Rotation-2@example.org', phone: null }));
    expect(returning.claimantId).toBe(claimants[1].claimantId);
  });

  it('leaves a key wrapped by a KEK it was not given, names that KEK, and rewraps the rest', async () => {
    const [lostFile, oldFile, newFile] = [kekFile('lost.key'), kekFile('old.key'), kekFile('new.key')];
    // a data key from a deployment whose KEK nobody kept
    const orphan = { claimantId: randomUUID(), key: randomBytes(32) };
    await db('claimants').insert({
      id: orphan.claimantId,
      wrapped_key: await local(lostFile).wrapKey(orphan.key),
      kek_id: local(lostFile).kekId,
    });
    const before = claimantPrivacy(db, local(oldFile), true);
    const kept = await db.transaction((trx) => before.claimantOf(trx, { email: 'kept@example.org', phone: null }));

    const rotated = claimantPrivacy(db, keyRing(local(newFile), [local(oldFile)]), true);
    // the blind-index key and the kept claimant's key
    expect(await rotated.rewrapKeys()).toEqual({ rewrapped: 2, failed: [{ kekId: local(lostFile).kekId, count: 1 }] });
    expect((await claimantPrivacy(db, local(newFile), true).keys.keyFor(kept.claimantId))!.equals(kept.key!)).toBe(true);
    await expect(rotated.keys.keyFor(orphan.claimantId)).rejects.toThrow(`the key-encryption key ${local(lostFile).kekId}`);
  });

  if (mode === 'postgres') itPassesOnEmbeddedToo(__filename, 'rotation on embedded', CASES);
});

describe('PRIVACY_RETIRED_KEK_FILES', () => {
  it('is read at start: a retired KEK file that is missing stops the start', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kek-retired-'));
    try {
      const current = path.join(dir, 'new.key');
      writeFileSync(current, randomBytes(32).toString('base64'));
      expect(() =>
        keyVaultFrom(
          {
            PRIVACY_ENCRYPTION: true,
            KEY_VAULT: 'local',
            PRIVACY_KEK_FILE: current,
            PRIVACY_RETIRED_KEK_FILES: path.join(dir, 'gone.key'),
          },
          dir,
        ),
      ).toThrow(/gone\.key cannot be read \(ENOENT\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
