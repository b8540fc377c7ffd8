import type { Knex } from '@platform/db';
import { startPeriodicTask, type PeriodicTask } from '@platform/http';
import type { KeyVault } from '@platform/privacy';
import type { ServiceDeps } from '@platform/runtime';

const BATCH = 200;
/** A KEK rotation is an operator's deliberate step, and a restart starts a pass at once: an hourly look suffices. */
export const KEY_REWRAP_INTERVAL_MS = 60 * 60_000;

export interface RewrapPass {
  /** Keys now wrapped by the current KEK. */
  rewrapped: number;
  /** Keys that could not be (their KEK is neither current nor retired): named by kek id, left as they are. */
  failed: { kekId: string | null; count: number }[];
}

/**
 * After a KEK rotation: every claimant data key and shared key wrapped by another KEK than the vault's current
 * one, unwrapped (by the KEK stored beside it, a retired one) and wrapped again by the current one, a batch per
 * transaction. The data keys themselves do not change, so nothing sealed with them is touched, and the rows are
 * locked while rewrapped, so an erasure destroying a key waits for (or skips) it.
 */
export async function rewrapKeys(db: Knex, vault: KeyVault): Promise<RewrapPass> {
  const current = vault.kekId;
  const failed = new Map<string | null, { ids: string[] }>();
  const failedIds = () => [...failed.values()].flatMap((entry) => entry.ids);
  let rewrapped = 0;

  const rewrapRows = async (table: 'claimants' | 'privacy_keys', idColumn: 'id' | 'name', trx: Knex) => {
    const rows: { id: string; wrapped_key: string; kek_id: string | null }[] = await trx(table)
      .whereNotNull('wrapped_key')
      .where((q) => q.whereNot('kek_id', current).orWhereNull('kek_id'))
      .whereNotIn(idColumn, failedIds())
      .orderBy(idColumn)
      .limit(BATCH)
      .forUpdate()
      .skipLocked()
      .select(`${idColumn} as id`, 'wrapped_key', 'kek_id');
    for (const row of rows) {
      try {
        const key = await vault.unwrapKey(row.wrapped_key, row.kek_id ?? undefined);
        await trx(table)
          .where({ [idColumn]: row.id })
          .update({ wrapped_key: await vault.wrapKey(key), kek_id: current });
        rewrapped += 1;
      } catch {
        const entry = failed.get(row.kek_id) ?? failed.set(row.kek_id, { ids: [] }).get(row.kek_id)!;
        entry.ids.push(row.id);
      }
    }
    return rows.length;
  };

  for (const [table, idColumn] of [
    ['privacy_keys', 'name'],
    ['claimants', 'id'],
  ] as const) {
    while ((await db.transaction((trx) => rewrapRows(table, idColumn, trx))) === BATCH);
  }
  return { rewrapped, failed: [...failed].map(([kekId, entry]) => ({ kekId, count: entry.ids.length })) };
}

/** Rewraps what a retired KEK wrapped (rewrapKeys): at start, then hourly. A key it cannot rewrap fails the pass, loudly. */
export function startKeyRewrap(
  deps: Pick<ServiceDeps, 'logger' | 'metrics'>,
  privacy: { rewrapKeys(): Promise<RewrapPass> },
): PeriodicTask {
  return startPeriodicTask({
    name: 'key-rewrap',
    work: async () => {
      const pass = await privacy.rewrapKeys();
      if (pass.failed.length > 0)
        throw new Error(
          `keys wrapped by a key-encryption key that is not configured (add its file to PRIVACY_RETIRED_KEK_FILES): ${pass.failed
            .map((entry) => `${entry.count} by ${entry.kekId ?? 'an unnamed KEK'}`)
            .join(', ')}; ${pass.rewrapped} rewrapped`,
        );
      return pass.rewrapped;
    },
    intervalMs: KEY_REWRAP_INTERVAL_MS,
    // a failed pass is tried again within minutes, so the periodic-task failure alert (> 2 in 30 min) fires
    backoff: { baseMs: 60_000, maxMs: KEY_REWRAP_INTERVAL_MS },
    logger: deps.logger,
    metrics: deps.metrics,
  });
}
