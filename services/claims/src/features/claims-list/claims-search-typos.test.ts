import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDatabase, migrate, type Knex } from '@platform/db';
import { canRunEmbeddedInJest, createTestDatabase, runEmbeddedCases, type TestDatabase } from '@platform/testing';
import { claimsMigrations } from '../../migrations';
import { insertTestClaim } from '../../testing/workflow-fixtures';
import { claimsListService } from './claims-list-service';

const CASES = 4;
const reader = { sub: 'alice', scopes: new Set(['claims:read']) };

/** The search of the claims list on both databases the platform runs on (PGlite: the embedded cases in a child jest). */
const modes = canRunEmbeddedInJest() ? (['postgres', 'embedded'] as const) : (['postgres'] as const);

describe.each(modes)('a name search with typos on %s', (mode) => {
  let db: Knex;
  let database: TestDatabase | undefined;
  let embeddedDir: string | undefined;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    if (mode === 'postgres') {
      database = await createTestDatabase('claimstypos', claimsMigrations);
      db = createDatabase({ url: database.url, poolMax: 2 });
    } else {
      embeddedDir = mkdtempSync(path.join(tmpdir(), 'claims-typos-'));
      db = createDatabase({ embeddedDir });
      await migrate(db, claimsMigrations);
    }
    for (const name of ['Jonathan Smithson', 'John Smith', 'Chidi Okafor', 'Ana Ruiz', 'Jon Okoro']) {
      const { claim_id } = await insertTestClaim(db);
      await db('claims').where({ id: claim_id }).update({ claimant_name: name });
      ids[name] = claim_id;
    }
  }, 120000);
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
    if (embeddedDir) rmSync(embeddedDir, { recursive: true, force: true });
  });

  const search = async (q: string) =>
    (await claimsListService()(db).list({ q, limit: 25, sort: '-created_at' }, reader)).items.map((item) => item.claim_id);

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

  it('keeps the lower threshold inside the search: the connection goes back with the default', async () => {
    await search('Okafur');
    const [{ threshold }] = (await db.raw(`SELECT current_setting('pg_trgm.word_similarity_threshold') AS threshold`)).rows;
    expect(Number(threshold)).toBe(0.6);
  });

  if (mode === 'postgres') {
    it('passes every case on embedded PGlite too', async () => {
      const result = await runEmbeddedCases(__filename, 'a name search with typos on embedded');
      expect(result.passed === CASES && result.failed === 0 ? 'all passed' : result.output).toBe('all passed');
    }, 240000);
  }
});
