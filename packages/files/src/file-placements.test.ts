import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createDatabase, migrate, type Knex, type Migration } from '@platform/db';
import { canRunEmbeddedInJest, openTestDatabase, runEmbeddedCases } from '@platform/testing';
import { filePlacements, type FilePlacements } from './file-placements';
import type { FileStorage } from './file-storage';
import { localFileStorage } from './local-file-storage';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A placing service in miniature: rows in `items` refer to content, placed under the content lock. */
const itemsMigration = { name: '0002_items', sql: 'CREATE TABLE items (id serial PRIMARY KEY, sha256 text NOT NULL);' };
const lockNamespace = 'test.item';
/** The table as the services' migrations create it (each holds this literal text). */
const placementsMigration: Migration = {
  name: '0001_file_placements',
  sql: `
      CREATE TABLE file_placements (
        id uuid PRIMARY KEY,
        sha256 text NOT NULL,
        announced_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX file_placements_announced_idx ON file_placements (announced_at);`,
};
const migrations = [placementsMigration, itemsMigration];

/**
 * The same cases on PostgreSQL and on embedded PGlite (`pnpm start` with no database URL), where a delete
 * once answered a result object instead of its count and every upload's settle failed with 503.
 */
const modes = canRunEmbeddedInJest() ? (['postgres', 'embedded'] as const) : (['postgres'] as const);

describe.each(modes)('file placements (%s)', (mode) => {
  let db: Knex;
  let url: string;
  let embeddedDir: string;
  let cleanup: () => Promise<void>;
  let dir: string;
  let storage: FileStorage;
  let placements: FilePlacements;

  const usePlacements = (handle: Knex) =>
    filePlacements(handle, {
      storage,
      lockNamespace,
      isReferenced: async (trx, content) => (await trx('items').where({ sha256: content }).first('id')) !== undefined,
    });

  beforeAll(async () => {
    if (mode === 'postgres') {
      ({ db, url, cleanup } = await openTestDatabase('files', migrations));
    } else {
      embeddedDir = mkdtempSync(path.join(tmpdir(), 'placements-pglite-'));
      db = createDatabase({ embeddedDir });
      await migrate(db, migrations);
      cleanup = async () => {
        await db.destroy();
        rmSync(embeddedDir, { recursive: true, force: true });
      };
    }
    dir = mkdtempSync(path.join(tmpdir(), 'placements-'));
    storage = localFileStorage({ root: dir });
    placements = usePlacements(db);
  }, 60000);
  afterAll(async () => {
    await cleanup?.();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Bytes written as a temporary file, as an upload leaves them before its transaction. */
  async function received(): Promise<{ temporaryId: string; sha256: string }> {
    const bytes = randomBytes(1024);
    return { temporaryId: await storage.writeTemporary(Readable.from([bytes])), sha256: sha256(bytes) };
  }

  /** What an upload's transaction does: settle, lock, place (placeAll), insert the row. */
  async function place(trx: Knex, file: { temporaryId: string; sha256: string }, announcements: string[]) {
    await placements.placeAll(trx, [file], announcements);
    await trx('items').insert({ sha256: file.sha256 });
  }

  const announcementsLeft = async () => Number((await db('file_placements').count({ n: '*' }))[0].n);

  it('a committed placement keeps its file and leaves no announcement', async () => {
    const file = await received();
    const announcements = await placements.announce([file.sha256]);
    await db.transaction((trx) => place(trx, file, announcements));
    expect(await placements.recover(announcements)).toBe(0);
    expect(await placements.recoverAbandoned(0)).toBe(0);
    expect(await storage.has(file.sha256)).toBe(true);
    expect(await announcementsLeft()).toBe(0);
  });

  it('a transaction that rolls back after placing: recover removes the file it left', async () => {
    const file = await received();
    const announcements = await placements.announce([file.sha256]);
    await expect(
      db.transaction(async (trx) => {
        await place(trx, file, announcements);
        throw new Error('the insert after it failed');
      }),
    ).rejects.toThrow('the insert after it failed');
    expect(await storage.has(file.sha256)).toBe(true);
    expect(await placements.recover(announcements)).toBe(1);
    expect(await storage.has(file.sha256)).toBe(false);
    expect(await announcementsLeft()).toBe(0);
  });

  it('a process killed between placing and committing: the next start removes the file, whatever its age', async () => {
    const file = await received();
    if (mode === 'postgres') {
      // Its own pool, whose connection dies with the transaction open, as the killed process's did.
      const doomed = createDatabase({ url });
      const announcements = await filePlacements(doomed, { storage, lockNamespace, isReferenced: async () => false }).announce([
        file.sha256,
      ]);
      const trx = await doomed.transaction();
      await place(trx, file, announcements);
      const { rows } = await trx.raw('SELECT pg_backend_pid() AS pid');
      await db.raw('SELECT pg_terminate_backend(?)', [rows[0].pid]);
      await trx.rollback().catch(() => undefined);
      await doomed.destroy().catch(() => undefined);
    } else {
      // The process owns the embedded database: it closes with the transaction open, and the next start reopens it.
      const announcements = await placements.announce([file.sha256]);
      const trx = await db.transaction();
      await place(trx, file, announcements);
      const pglite = (db.client as { pglite: { close(): Promise<void> } }).pglite;
      await pglite.close();
      await trx.rollback().catch(() => undefined);
      await db.destroy().catch(() => undefined);
      db = createDatabase({ embeddedDir });
      placements = usePlacements(db);
    }
    expect(await storage.has(file.sha256)).toBe(true);
    expect(await placements.recoverAbandoned(60_000)).toBe(0); // younger than a minute: not yet abandoned while running
    expect(await placements.recoverAbandoned(0)).toBe(1);
    expect(await storage.has(file.sha256)).toBe(false);
  });

  it('skips a placement whose transaction is still running, and the file survives its commit', async () => {
    const file = await received();
    const announcements = await placements.announce([file.sha256]);
    const trx = await db.transaction();
    await place(trx, file, announcements);
    if (mode === 'postgres') {
      expect(await placements.recoverAbandoned(0)).toBe(0);
      await trx.commit();
    } else {
      // One connection: the recovery waits for the placing transaction to end, then finds its announcement gone.
      const recovering = placements.recoverAbandoned(0);
      await trx.commit();
      expect(await recovering).toBe(0);
    }
    expect(await storage.has(file.sha256)).toBe(true);
    expect(await announcementsLeft()).toBe(0);
  });

  it('keeps content that a committed row refers to, even when an abandoned placement announced it too', async () => {
    const file = await received();
    const announcements = await placements.announce([file.sha256]); // before its transaction, as an upload announces
    await db.transaction(async (trx) => place(trx, file, announcements));
    const abandoned = await placements.announce([file.sha256]);
    expect(await placements.recover(abandoned)).toBe(1);
    expect(await storage.has(file.sha256)).toBe(true);
  });

  it('refuses to place, with a retryable 503, when its announcement was taken for abandoned', async () => {
    const file = await received();
    const announcements = await placements.announce([file.sha256]);
    expect(await placements.recoverAbandoned(0)).toBe(1);
    const refused = await db.transaction((trx) => place(trx, file, announcements)).catch((error: { status?: number }) => error);
    expect(refused).toMatchObject({ status: 503 });
    expect(await storage.has(file.sha256)).toBe(false);
    await storage.discard(file.temporaryId);
  });
});

if (!canRunEmbeddedInJest())
  describe('file placements on embedded PGlite', () => {
    it('pass the same six cases (run in a jest that PGlite can load in)', async () => {
      const result = await runEmbeddedCases(__filename, 'file placements \\(embedded\\)');
      expect(result.passed === 6 && result.failed === 0 ? 'all six passed' : result.output).toBe('all six passed');
    }, 240000);
  });
