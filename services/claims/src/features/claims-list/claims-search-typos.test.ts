import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Knex } from '@platform/db';
import { DATABASE_MODES, itPassesOnEmbeddedToo, openModeDatabase, type ModeDatabase } from '@platform/testing';
import { claimsMigrations } from '../../migrations';
import { insertTestClaim } from '../../testing/workflow-fixtures';
import { localKeyVault } from '@platform/privacy';
import { claimantPrivacy } from '../claimants';
import { claimsListService } from './claims-list-service';
import { forgetClaimantName, indexClaimantName, nameTrigrams } from './claimant-name-index';

const CASES = 5;
const reader = { sub: 'alice', scopes: new Set(['claims:read']) };

/** The search of the claims list on both databases the platform runs on (PGlite: the embedded cases in a child jest). */
describe.each(DATABASE_MODES)('a name search with typos on %s', (mode) => {
  let db: Knex;
  let database: ModeDatabase | undefined;
  const ids: Record<string, string> = {};
  const nameKey = randomBytes(32);
  const keyDir = mkdtempSync(path.join(tmpdir(), 'claims-typos-kek-'));

  beforeAll(async () => {
    database = await openModeDatabase(mode, 'claimstypos', claimsMigrations);
    db = database.db;
    for (const name of ['Jonathan Smithson', 'John Smith', 'Chidi Okafor', 'Ana Ruiz', 'Jon Okoro']) {
      const { claim_id } = await insertTestClaim(db);
      await db('claims').where({ id: claim_id }).update({ claimant_name: name });
      await indexClaimantName(db, claim_id, name, nameKey);
      ids[name] = claim_id;
    }
  }, 120000);
  afterAll(async () => {
    await database?.close();
    rmSync(keyDir, { recursive: true, force: true });
  });

  const search = async (q: string) =>
    (
      await claimsListService(
        { on: async () => nameKey },
        claimantPrivacy(db, localKeyVault(path.join(keyDir, 'kek')), true),
      )(db).list({ q, limit: 25, sort: '-created_at' }, reader)
    ).items.map((item) => item.claim_id);

  it('finds "Jonathon Smithsen" (a typo in each word) as Jonathan Smithson, first, and not John Smith', async () => {
    const found = await search('Jonathon Smithsen');
    expect(found[0]).toBe(ids['Jonathan Smithson']);
    expect(found).not.toContain(ids['John Smith']);
  });

  it('finds "Okafur" (two letters off) as Chidi Okafor, and not Jon Okoro', async () => {
    expect(await search('Okafur')).toEqual([ids['Chidi Okafor']]);
  });

  it('still finds a name with one typo and leaves unrelated names out', async () => {
    expect(await search('Ana Ruis')).toEqual([ids['Ana Ruiz']]);
    expect(await search('Zebediah Quill')).toEqual([]);
  });

  it('holds no name, word or trigram of a name in the index, only numbers of 12 bits', async () => {
    const { rows } = await db.raw(
      `SELECT tokens::text AS held FROM claimant_name_index UNION ALL SELECT tokens::text FROM claimant_name_sets`,
    );
    const held = rows.map((row: { held: string }) => row.held.toLowerCase()).join('\n');
    for (const name of Object.keys(ids)) {
      for (const part of [name, ...name.split(' '), ...nameTrigrams(name).map((trigram) => trigram.trim())].filter((p) => p.length >= 2))
        expect(held).not.toContain(part.toLowerCase());
    }
    const tokens = (await db('claimant_name_index').select('tokens')).flatMap((row: { tokens: number[] }) => row.tokens);
    expect(tokens.length).toBeGreaterThan(0);
    expect(tokens.every((token) => Number.isInteger(token) && token >= 0 && token < 4096)).toBe(true);
  });

  it('no longer finds a forgotten claim by its name, and deletes the token sets no claim holds', async () => {
    const { claim_id } = await insertTestClaim(db);
    await db('claims').where({ id: claim_id }).update({ claimant_name: 'Zebediah Quill' });
    await indexClaimantName(db, claim_id, 'Zebediah Quill', nameKey);
    expect(await search('Zebediah Quil')).toEqual([claim_id]);
    const sets = async () => Number((await db('claimant_name_sets').count({ n: '*' }))[0].n);
    const before = await sets();

    await db.transaction((trx) => forgetClaimantName(trx, [claim_id]));

    expect(await search('Zebediah Quil')).toEqual([]);
    expect(await db('claimant_name_index').where({ claim_id })).toEqual([]);
    expect(await sets()).toBe(before - 1);
    expect(await search('Chidi Okafor')).toEqual([ids['Chidi Okafor']]); // the others stay found
  });

  if (mode === 'postgres') itPassesOnEmbeddedToo(__filename, 'a name search with typos on embedded', CASES);
});
