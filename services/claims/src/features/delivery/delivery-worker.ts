import type { Knex } from '@platform/db';
import { retryDelayMs } from '@platform/messaging';
import type { ServiceDeps } from '@platform/runtime';
import type { Logger } from 'pino';
import { findClaim } from '../../shared/claim-store';
import { statusUpdatesStore } from '../status-updates/status-updates-store';
import { createMessageSender, renderStatusUpdate, type SendMessage } from './delivery-channels';
import { completeDelivery, leaseDueDelivery, retryDeliveryLater, type DueDelivery } from './delivery-store';

export const DELIVERY_MAX_ATTEMPTS = 5;
const LEASE_SECONDS = 60;
const POLL_INTERVAL_MS = 1000;

export interface DeliveryWorker {
  /** Look at the queue now (after a commit) rather than at the next poll. */
  kick(): void;
  /** Processes every delivery due now; resolves with how many were attempted. */
  drain(): Promise<number>;
  stop(): Promise<void>;
}

/** Sends one leased delivery and records the outcome; a failure is retried with backoff, then failed. */
async function attempt(db: Knex, send: SendMessage, due: DueDelivery, logger: Logger): Promise<void> {
  const stored = await statusUpdatesStore(db).find(due.update_id);
  const claim = stored ? await findClaim(db, stored.update.claim_id) : undefined;
  if (!claim || !stored) return completeDelivery(db, due.delivery_id, { status: 'failed', lastError: 'The status update or its claim no longer exists' });
  const to = due.channel === 'email' ? claim.claimant.email : claim.claimant.phone;
  if (!to) return completeDelivery(db, due.delivery_id, { status: 'failed', lastError: `The claimant has no ${due.channel === 'email' ? 'email address' : 'phone number'}` });
  try {
    const outcome = await send({ channel: due.channel, to, claimNumber: claim.claim_number, updateId: due.update_id, ...renderStatusUpdate(claim.claim_number, stored.update) });
    await completeDelivery(db, due.delivery_id, outcome);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (due.attempts >= DELIVERY_MAX_ATTEMPTS) {
      logger.warn({ delivery_id: due.delivery_id, attempts: due.attempts, err: message }, 'status update delivery failed for good');
      await completeDelivery(db, due.delivery_id, { status: 'failed', lastError: message });
    } else {
      await retryDeliveryLater(db, due.delivery_id, retryDelayMs(due.attempts, 1000, 60000), message);
    }
  }
}

/** The background worker that empties the delivery queue (started by the service's startBackground). */
export function startDeliveryWorker(db: Knex, send: SendMessage, logger: Logger, pollIntervalMs = POLL_INTERVAL_MS): DeliveryWorker {
  let stopped = false;
  let running: Promise<number> | undefined;
  let again = false;

  const drain = async (): Promise<number> => {
    let count = 0;
    while (!stopped) {
      const due = await leaseDueDelivery(db, LEASE_SECONDS);
      if (!due) break;
      count += 1;
      await attempt(db, send, due, logger);
    }
    return count;
  };
  const tick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch((error) => {
        logger.warn({ err: error }, 'delivery worker pass failed; retrying at the next poll');
        return 0;
      })
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          tick();
        }
      });
  };
  const timer = setInterval(tick, pollIntervalMs);
  timer.unref();
  tick();
  return {
    kick: tick,
    drain: async () => {
      await running;
      return drain();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * The worker as the service holds it: started with the background work; `kick` wakes it after a
 * status update commits (a no-op before it starts).
 */
export function deliveryWorkerHandle(settings: { SMTP_URL?: string; SMTP_FROM: string; SMS_WEBHOOK_URL?: string }) {
  let worker: DeliveryWorker | undefined;
  return {
    kick: () => worker?.kick(),
    start(deps: ServiceDeps): DeliveryWorker {
      worker = startDeliveryWorker(deps.db, createMessageSender(settings, deps.logger), deps.logger);
      return worker;
    },
  };
}
