import { randomUUID } from 'node:crypto';
import type { Knex } from '@platform/db';
import { problems } from '@platform/http';
import type { FileStorage } from './file-storage';
import { storedAddress } from './upload-pipeline';

/** The table that records placements in flight; each service that places files creates it in a migration of its own. */
const TABLE = 'file_placements';

export interface FilePlacementsOptions {
  storage: FileStorage;
  /** Names the service's content locks (`<lockNamespace>:<sha256>`), which `lockContent` takes. */
  lockNamespace: string;
  /** True when a committed row refers to the content. */
  isReferenced(trx: Knex, sha256: string): Promise<boolean>;
}

/**
 * A file is placed at its content address inside the transaction that writes its row, so a row never
 * lacks its file; but a process killed after placing and before committing leaves a file no row refers
 * to, which a later restart cannot tell from a stored one. So every placement is announced first, in a
 * commit of its own; the placing transaction deletes its announcements (holding their row locks to its
 * end), and `recover` removes the file of any announcement still there once nobody holds it: the
 * transaction rolled back, failed to clean up (the database was down) or died with its process.
 * Recovery takes the announcement's row lock before the content lock, as the placing transaction does.
 */
export function filePlacements(db: Knex, options: FilePlacementsOptions) {
  const lockContent = async (trx: Knex, sha256: string) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`${options.lockNamespace}:${sha256}`]);
  };
  const recoverOne = (id: string) =>
    db.transaction(async (trx) => {
      // SKIP LOCKED: a placing transaction still running holds its announcement and is not abandoned.
      const announced = (await trx(TABLE).where({ id }).forUpdate().skipLocked().first('sha256')) as { sha256: string } | undefined;
      if (!announced) return false;
      await lockContent(trx, announced.sha256);
      if (!(await options.isReferenced(trx, announced.sha256))) await options.storage.remove(announced.sha256);
      await trx(TABLE).where({ id }).delete();
      return true;
    });

  /**
   * First in the placing transaction: its commit and the end of its announcements are one. An
   * announcement already gone was taken for abandoned (a replica starting meanwhile recovered it), and
   * placing without it could leave a file behind, so the request is refused as retryable instead.
   */
  const settle = async (trx: Knex, ids: string[]): Promise<void> => {
    if (ids.length === 0) return;
    const deleted = await trx(TABLE).whereIn('id', ids).delete();
    if (deleted !== ids.length) throw problems.serviceUnavailable('The upload was interrupted; send it again');
  };

  const recover = async (ids: string[]) => {
    let settled = 0;
    for (const id of ids) if (await recoverOne(id)) settled += 1;
    return settled;
  };

  return {
    /**
     * Serialises placing and removing the file of this content for the rest of the transaction: a
     * placing transaction takes it before it places (several in sorted order, so two never deadlock).
     */
    lockContent,

    /** Commits one announcement per content before a transaction places them; returns their ids. */
    async announce(sha256s: string[]): Promise<string[]> {
      const rows = [...new Set(sha256s)].map((sha256) => ({ id: randomUUID(), sha256 }));
      if (rows.length > 0) await db(TABLE).insert(rows);
      return rows.map((row) => row.id);
    },

    /**
     * What a placing transaction does with its files: settles the announcements (first, so that they end
     * with its commit), takes the content locks in one global order (uploads sharing files never
     * deadlock) and places each file at its content address.
     */
    async placeAll(trx: Knex, files: { temporaryId: string; sha256: string; storedAs?: string }[], announcements: string[]): Promise<void> {
      await settle(trx, announcements);
      for (const address of [...new Set(files.map(storedAddress))].sort()) await lockContent(trx, address);
      for (const file of files) await options.storage.place(file.temporaryId, storedAddress(file));
    },

    /** Removes the files of these announcements that no committed row refers to; returns how many it settled. */
    recover,

    /** `recover` for every announcement at least `olderThanMs` old (by the database's clock) that no transaction holds. */
    async recoverAbandoned(olderThanMs: number): Promise<number> {
      const ids = (await db(TABLE)
        .whereRaw('announced_at <= now() - make_interval(secs => ?)', [olderThanMs / 1000])
        .orderBy('announced_at')
        .pluck('id')) as string[];
      return recover(ids);
    },
  };
}

export type FilePlacements = ReturnType<typeof filePlacements>;
