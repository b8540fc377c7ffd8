import { randomUUID } from 'node:crypto';
import type { Knex, PendingWrite } from '@platform/db';
import { statusUpdateJsonSql, type StatusUpdate } from '../../shared/status-update';
import { openClaimColumn } from '../../shared/claim-store';
import { openUpdateTexts } from '../../shared/claimant-fields';
import type { ClaimantKeys } from '../claimants';
import type { ClaimDelivery } from './delivery-schemas';

/** What a delivery carries: a stored status update, a new access link, or the one-time link to a claimant's export (no update behind either). */
export const DELIVERY_KINDS = ['status_update', 'access_link', 'export_link'] as const;

export interface DueDelivery {
  delivery_id: string;
  kind: (typeof DELIVERY_KINDS)[number];
  /** The status update it carries; null for an access link or an export link. */
  update_id: string | null;
  /** The claimant export whose link it carries; null otherwise. */
  export_id: string | null;
  /** That update, read with the lease; null for an access link or when the update no longer exists. */
  update: StatusUpdate | null;
  claim_id: string;
  channel: 'email' | 'sms';
  attempts: number;
  /** The claim's number, language and claimant contact, read with the lease. */
  claim: { claim_number: string; language: string; email: string | null; phone: string | null };
}

interface DeliveryRow {
  id: string;
  kind: ClaimDelivery['kind'];
  update_id: string | null;
  channel: ClaimDelivery['channel'];
  status: 'pending' | 'sent' | 'logged' | 'failed' | 'delivered';
  attempts: number;
  last_error: string | null;
  provider_message_id: string | null;
  next_attempt_at: Date;
  created_at: Date;
  completed_at: Date | null;
}

/**
 * The status a reader sees: a pending delivery is `queued` until an attempt fails and `retrying` after;
 * handed to the provider, written to the log (no provider configured) or served on the portal is `sent`.
 */
function toClaimDelivery(row: DeliveryRow): ClaimDelivery {
  const status = row.status === 'pending' ? (row.last_error === null ? 'queued' : 'retrying') : row.status === 'failed' ? 'failed' : 'sent';
  return {
    delivery_id: row.id,
    kind: row.kind,
    update_id: row.update_id,
    channel: row.channel,
    status,
    attempts: row.attempts,
    last_error: row.last_error,
    provider_message_id: row.provider_message_id,
    next_attempt_at: row.status === 'pending' ? new Date(row.next_attempt_at).toISOString() : null,
    created_at: new Date(row.created_at).toISOString(),
    completed_at: row.completed_at === null ? null : new Date(row.completed_at).toISOString(),
  };
}

/** SQL condition (on `claims`): a message to the claimant failed for good. */
export const HAS_FAILED_DELIVERY = `EXISTS (SELECT 1 FROM deliveries fd WHERE fd.claim_id = claims.id AND fd.status = 'failed')`;

export function deliveriesStore(db: Knex) {
  return {
    /**
     * Queues a status update for delivery on its channel, on the caller's transaction, when awaited or
     * passed to `writeTogether`. A portal update is delivered by being stored (the claimant status
     * endpoint serves it).
     */
    queue(stored: { update_id: string; update: Pick<StatusUpdate, 'channel' | 'claim_id'> }): PendingWrite {
      const { channel, claim_id } = stored.update;
      return db('deliveries').insert({
        id: randomUUID(),
        update_id: stored.update_id,
        claim_id,
        channel,
        status: channel === 'portal' ? 'delivered' : 'pending',
        completed_at: channel === 'portal' ? db.raw('clock_timestamp()') : null,
      });
    },

    /** Queues the one-time download link of a claimant's ready export on the claim's email or SMS channel, on the caller's transaction. */
    async queueExportLink(claimId: string, exportId: string, channel: 'email' | 'sms'): Promise<void> {
      await db('deliveries').insert({
        id: randomUUID(),
        kind: 'export_link',
        export_id: exportId,
        claim_id: claimId,
        channel,
        status: 'pending',
      });
    },

    /**
     * Leases the next due pending delivery: it is pushed `leaseSeconds` into the future and its attempt
     * counted in one statement, so two workers never send it at once and a worker that dies mid-send
     * leaves it to be retried when the lease runs out. The same statement reads who it goes to and the
     * update it carries (the one leased row joined to its claim and its update by primary key).
     */
    async leaseDue(leaseSeconds: number, keys: ClaimantKeys): Promise<DueDelivery | undefined> {
      const { rows } = await db.raw<{
        rows: (Omit<DueDelivery, 'delivery_id' | 'claim'> & {
          id: string;
          claim_number: string;
          language: string;
          claimant_id: string;
          claimant_email: string | null;
          claimant_phone: string | null;
        })[];
      }>(
        `WITH leased AS (
           UPDATE deliveries SET attempts = attempts + 1, next_attempt_at = clock_timestamp() + make_interval(secs => ?)
           WHERE id = (SELECT id FROM deliveries WHERE status = 'pending' AND next_attempt_at <= clock_timestamp()
                       ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED)
           RETURNING id, kind, update_id, export_id, claim_id, channel, attempts)
         SELECT leased.*, claims.claim_number, claims.language, claims.claimant_id, claims.claimant_email, claims.claimant_phone,
                CASE WHEN su.update_id IS NULL THEN NULL ELSE ${statusUpdateJsonSql('su')} END AS update
         FROM leased JOIN claims ON claims.id = leased.claim_id
         LEFT JOIN status_updates su ON su.update_id = leased.update_id`,
        [leaseSeconds],
      );
      const [row] = rows;
      if (!row) return undefined;
      // the address and the texts, opened with the claimant's data key: the one place a delivery reads them
      const key = await keys.keyFor(row.claimant_id, db);
      return {
        delivery_id: row.id,
        kind: row.kind,
        update_id: row.update_id,
        export_id: row.export_id,
        update: row.update && openUpdateTexts(key, row.update),
        claim_id: row.claim_id,
        channel: row.channel,
        attempts: row.attempts,
        claim: {
          claim_number: row.claim_number,
          language: row.language,
          email: openClaimColumn('claimant_email', row.claim_id, row.claimant_email, key),
          phone: openClaimColumn('claimant_phone', row.claim_id, row.claimant_phone, key),
        },
      };
    },

    /** Ends a delivery: handed to the provider (`sent`, with the provider's message id), `logged`, or `failed` with the last error. */
    async complete(
      deliveryId: string,
      outcome: { status: 'sent' | 'logged'; providerMessageId: string | null } | { status: 'failed'; lastError: string },
    ): Promise<void> {
      await db('deliveries')
        .where({ id: deliveryId })
        .update(
          outcome.status === 'failed'
            ? { status: 'failed', last_error: outcome.lastError, completed_at: db.raw('clock_timestamp()') }
            : { status: outcome.status, provider_message_id: outcome.providerMessageId, completed_at: db.raw('clock_timestamp()') },
        );
    },

    async retryLater(deliveryId: string, delayMs: number, lastError: string): Promise<void> {
      await db('deliveries')
        .where({ id: deliveryId })
        .update({ last_error: lastError, next_attempt_at: db.raw('clock_timestamp() + make_interval(secs => ?)', [delayMs / 1000]) });
    },

    /** Every delivery of a claim, oldest first. */
    async listOfClaim(claimId: string): Promise<ClaimDelivery[]> {
      const rows = await db('deliveries')
        .where({ claim_id: claimId })
        .orderBy([{ column: 'created_at' }, { column: 'id' }]);
      return (rows as DeliveryRow[]).map(toClaimDelivery);
    },

    async countClaimsWithFailedDelivery(): Promise<number> {
      const row = await db('claims').whereRaw(HAS_FAILED_DELIVERY).count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },
  };
}
