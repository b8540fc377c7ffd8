import { randomUUID } from 'node:crypto';
import type { Knex } from '@platform/db';
import type { StoredStatusUpdate } from '../status-updates/status-updates-store';

/** What a delivery carries: a stored status update, or a new access link (no update behind it). */
export const DELIVERY_KINDS = ['status_update', 'access_link'] as const;

/**
 * Queues a stored status update for delivery on its channel, on the caller's transaction. A portal
 * update is delivered by being stored (the claimant status endpoint serves it).
 */
export async function queueDelivery(db: Knex, stored: StoredStatusUpdate): Promise<void> {
  const { channel, claim_id } = stored.update;
  await db('deliveries').insert({
    id: randomUUID(),
    update_id: stored.update_id,
    claim_id,
    channel,
    status: channel === 'portal' ? 'delivered' : 'pending',
    completed_at: channel === 'portal' ? db.raw('clock_timestamp()') : null,
  });
}

export interface DueDelivery {
  delivery_id: string;
  update_id: string;
  channel: 'email' | 'sms';
  attempts: number;
}

/**
 * Leases the next due pending delivery: it is pushed `leaseSeconds` into the future and its attempt
 * counted in one statement, so two workers never send it at once and a worker that dies mid-send
 * leaves it to be retried when the lease runs out.
 */
export async function leaseDueDelivery(db: Knex, leaseSeconds: number): Promise<DueDelivery | undefined> {
  const { rows } = await db.raw<{ rows: { id: string; update_id: string; channel: 'email' | 'sms'; attempts: number }[] }>(
    `UPDATE deliveries SET attempts = attempts + 1, next_attempt_at = clock_timestamp() + make_interval(secs => ?)
     WHERE id = (SELECT id FROM deliveries WHERE status = 'pending' AND next_attempt_at <= clock_timestamp()
                 ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING id, update_id, channel, attempts`,
    [leaseSeconds],
  );
  const [row] = rows;
  return row ? { delivery_id: row.id, update_id: row.update_id, channel: row.channel, attempts: row.attempts } : undefined;
}

export async function completeDelivery(db: Knex, deliveryId: string, status: 'sent' | 'logged' | 'failed', lastError: string | null = null): Promise<void> {
  await db('deliveries').where({ id: deliveryId }).update({ status, last_error: lastError, completed_at: db.raw('clock_timestamp()') });
}

export async function retryDeliveryLater(db: Knex, deliveryId: string, delayMs: number, lastError: string): Promise<void> {
  await db('deliveries')
    .where({ id: deliveryId })
    .update({ last_error: lastError, next_attempt_at: db.raw('clock_timestamp() + make_interval(secs => ?)', [delayMs / 1000]) });
}
