import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createDatabase, type Knex } from '@platform/db';
import { openTestDatabase } from '@platform/testing';
import { filePlacements, filePlacementsMigration, type FilePlacements } from './file-placements';
import type { FileStorage } from './file-storage';
import { localFileStorage } from './local-file-storage';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A placing service in miniature: rows in `items` refer to content, placed under the content lock. */
const itemsMigration = { name: '0002_items', sql: 'CREATE TABLE items (id serial PRIMARY KEY, sha256 text NOT NULL);' };
const lockNamespace = 'test.item';

describe('file placements', () => {
  let db: Knex;
  let url: string;
  let cleanup: () => Promise<void>;
  let dir: string;
  let storage: FileStorage;
  let placements: FilePlacements;

  beforeAll(async () => {
    ({ db, url, cleanup } = await openTestDatabase('files', [filePlacementsMigration('0001_file_placements'), itemsMigration]));
    dir = mkdtempSync(path.join(tmpdir(), 'placements-'));
    storage = localFileStorage({ root: dir });
    placements = filePlacements(db, {
      storage,
      lockNamespace,
      isReferenced: async (trx, content) => (await trx('items').where({ sha256: content }).first('id')) !== undefined,
    });
  });
  afterAll(async () => {
    await cleanup?.();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Bytes written as a temporary file, as an upload leaves them before its transaction. */
  async function received(): Promise<{ temporaryId: string; sha256: string }> {
    const bytes = randomBytes(1024);
    return { temporaryId: await storage.writeTemporary(Readable.from([bytes])), sha256: sha256(bytes) };
  }

  /** What an upload's transaction does: settle, lock, place, insert the row. */
  async function place(trx: Knex, file: { temporaryId: string; sha256: string }, announcements: string[]) {
    await placements.settle(trx, announcements);
    await placements.lockContent(trx, file.sha256);
    await storage.place(file.temporaryId, file.sha256);
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
    // Its own pool, whose connection dies with the transaction open, as the killed process's did.
    const doomed = createDatabase({ url });
    const announcements = await filePlacements(doomed, { storage, lockNamespace, isReferenced: async () => false }).announce([file.sha256]);
    const trx = await doomed.transaction();
    await place(trx, file, announcements);
    const { rows } = await trx.raw('SELECT pg_backend_pid() AS pid');
    await db.raw('SELECT pg_terminate_backend(?)', [rows[0].pid]);
    await trx.rollback().catch(() => undefined);
    await doomed.destroy().catch(() => undefined);
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
    expect(await placements.recoverAbandoned(0)).toBe(0);
    await trx.commit();
    expect(await storage.has(file.sha256)).toBe(true);
    expect(await announcementsLeft()).toBe(0);
  });

  it('keeps content that a committed row refers to, even when an abandoned placement announced it too', async () => {
    const file = await received();
    await db.transaction(async (trx) => place(trx, file, await placements.announce([file.sha256])));
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
