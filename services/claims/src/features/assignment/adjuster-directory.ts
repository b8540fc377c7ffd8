import type { Principal } from '@platform/auth';
import type { Knex } from '@platform/db';
import { WRITE_SCOPE } from '../../shared/stage-machine';

/** Someone seen again within this long is not written again: opening the queue is not a write per page view. */
const SEEN_AGAIN_AFTER = '1 hour';

export interface Adjuster {
  sub: string;
  last_seen_at: string;
}

/** The people who work claims, as the service has seen them (migration 0018). */
export function adjusterDirectory(db: Knex) {
  return {
    /** Records `sub` as an adjuster (or refreshes when they were last seen). */
    async saw(sub: string): Promise<void> {
      await db.raw(
        `INSERT INTO adjusters (sub) VALUES (?)
         ON CONFLICT (sub) DO UPDATE SET last_seen_at = clock_timestamp()
         WHERE adjusters.last_seen_at < clock_timestamp() - interval '${SEEN_AGAIN_AFTER}'`,
        [sub],
      );
    },

    /** A caller holding claims:write is an adjuster. */
    async sawCaller(caller: Principal): Promise<void> {
      if (caller.scopes.has(WRITE_SCOPE)) await this.saw(caller.sub);
    },

    /** Up to `limit` adjusters after `after` (their `sub`), by `sub`. */
    async page(after: string | undefined, limit: number): Promise<Adjuster[]> {
      let query = db('adjusters').select('sub', 'last_seen_at').orderBy('sub').limit(limit);
      if (after !== undefined) query = query.where('sub', '>', after);
      const rows = (await query) as { sub: string; last_seen_at: Date }[];
      return rows.map((row) => ({ sub: row.sub, last_seen_at: new Date(row.last_seen_at).toISOString() }));
    },
  };
}
