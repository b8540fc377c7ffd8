import { randomUUID } from 'node:crypto';
import type { Knex } from '@platform/db';
import { openClaimColumn } from '../../shared/claim-store';
import type { ClaimantKeys } from '../claimants';

export function accessLinksStore(db: Knex) {
  return {
    /**
     * Counts a hit in the bucket's current fixed window (one upsert, so concurrent replicas count
     * together) and answers how many the window holds now and how many seconds it has left.
     */
    async hit(bucket: string, windowSeconds: number): Promise<{ hits: number; resetSeconds: number }> {
      const { rows } = await db.raw<{ rows: { hits: number; reset_seconds: number }[] }>(
        `INSERT INTO rate_limit_windows AS w (bucket, window_start, hits)
         VALUES (?, to_timestamp(floor(extract(epoch FROM clock_timestamp()) / ?) * ?), 1)
         ON CONFLICT (bucket, window_start) DO UPDATE SET hits = w.hits + 1
         RETURNING hits, ceil(extract(epoch FROM w.window_start + make_interval(secs => ?) - clock_timestamp()))::int AS reset_seconds`,
        [bucket, windowSeconds, windowSeconds, windowSeconds],
      );
      return { hits: rows[0].hits, resetSeconds: Math.max(1, rows[0].reset_seconds) };
    },

    /** Windows that ended before `olderThanSeconds` ago are of no further use. */
    async purgeWindows(olderThanSeconds: number): Promise<void> {
      await db('rate_limit_windows')
        .where('window_start', '<', db.raw('clock_timestamp() - make_interval(secs => ?)', [olderThanSeconds]))
        .delete();
    },

    /**
     * The contact details an access-link request is matched against (claim numbers are stored upper case),
     * opened with the claimant's data key.
     */
    async findContacts(
      claimNumber: string,
      keys: ClaimantKeys,
    ): Promise<{ claim_id: string; email: string | null; phone: string | null } | undefined> {
      const row = await db('claims').where({ claim_number: claimNumber }).first('id', 'claimant_id', 'claimant_email', 'claimant_phone');
      if (!row) return undefined;
      const key = await keys.keyFor(row.claimant_id, db);
      return {
        claim_id: row.id,
        email: openClaimColumn('claimant_email', row.id, row.claimant_email, key),
        phone: openClaimColumn('claimant_phone', row.id, row.claimant_phone, key),
      };
    },

    /** How many access links were queued for the claim in the last `seconds` (sent, pending or failed alike). */
    async accessLinksQueuedSince(claimId: string, seconds: number): Promise<number> {
      const [{ count }] = await db('deliveries')
        .where({ claim_id: claimId, kind: 'access_link' })
        .andWhere('created_at', '>', db.raw('clock_timestamp() - make_interval(secs => ?)', [seconds]))
        .count({ count: '*' });
      return Number(count);
    },

    /** Queues a new access link on the delivery queue (its token is made when it is sent). */
    async queueAccessLink(claimId: string, channel: 'email' | 'sms'): Promise<void> {
      await db('deliveries').insert({
        id: randomUUID(),
        kind: 'access_link',
        update_id: null,
        claim_id: claimId,
        channel,
        status: 'pending',
      });
    },

    /** Replaces the claim's access token (only its hash is stored): every earlier token stops opening the claim. */
    async replaceTokenHash(claimId: string, tokenHash: string): Promise<void> {
      await db('claims').where({ id: claimId }).update({ access_token_hash: tokenHash });
    },
  };
}
