import type { Knex } from '@platform/db';
import { retryDelayMs, startPeriodicTask } from '@platform/http';
import type { ServiceDeps } from '@platform/runtime';
import type { Logger } from 'pino';
import { claimantMessages } from '../../shared/claimant-messages';
import { sendAccessLink } from './access-link-delivery';
import { sendExportLink } from './export-link-delivery';
import { createMessageSender, renderStatusUpdate, type Brand, type SendMessage, type SendOutcome } from './delivery-channels';
import { deliveriesStore, type DueDelivery } from './delivery-store';
import { claimantPrivacyFor, type ClaimantKeys } from '../claimants';

export const DELIVERY_MAX_ATTEMPTS = 5;
const LEASE_SECONDS = 60;
const POLL_INTERVAL_MS = 1000;

export interface DeliveryWorker {
  /** Look at the queue now (after a commit) rather than at the next poll. */
  kick(): void;
  stop(): Promise<void>;
}

/** Sends a status update to the claimant; a missing update, claim or contact fails it at once. */
async function sendStatusUpdate(send: SendMessage, due: DueDelivery): Promise<SendOutcome | { status: 'failed'; lastError: string }> {
  const { claim, update } = due;
  if (due.update_id === null || !update) return { status: 'failed', lastError: 'The status update no longer exists' };
  const to = due.channel === 'email' ? claim.email : claim.phone;
  if (!to) return { status: 'failed', lastError: `The claimant has no ${due.channel === 'email' ? 'email address' : 'phone number'}` };
  return send({
    channel: due.channel,
    to,
    claimNumber: claim.claim_number,
    updateId: due.update_id,
    idempotencyKey: `delivery-${due.delivery_id}`,
    ...renderStatusUpdate(claim.claim_number, update, claimantMessages(update.language ?? claim.language)),
  });
}

/** Sends one leased delivery (a status update, an access link or an export link) and records the outcome; a failure is retried with backoff, then failed. */
async function attempt(db: Knex, send: SendMessage, due: DueDelivery, logger: Logger, links: DeliveryLinks): Promise<void> {
  try {
    const to = due.channel === 'email' ? due.claim.email : due.claim.phone;
    const outcome =
      due.kind === 'access_link'
        ? await sendAccessLink(db, links.publicBaseUrl, { ...due, to }, send)
        : due.kind === 'export_link'
          ? await sendExportLink(db, links, { ...due, to }, send)
          : await sendStatusUpdate(send, due);
    await deliveriesStore(db).complete(due.delivery_id, outcome);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (due.attempts >= DELIVERY_MAX_ATTEMPTS) {
      logger.warn({ delivery_id: due.delivery_id, kind: due.kind, attempts: due.attempts, err: message }, 'delivery failed for good');
      await deliveriesStore(db).complete(due.delivery_id, { status: 'failed', lastError: message });
    } else {
      await deliveriesStore(db).retryLater(due.delivery_id, retryDelayMs(due.attempts, 1000, 60000), message);
    }
  }
}

/** What the links in access-link and export-link messages are made of: the base URL, and how long a download token lasts. */
export interface DeliveryLinks {
  publicBaseUrl: string;
  exportLinkTtlHours: number;
}

/** The background worker that empties the delivery queue (started by the service's startBackground). */
export function startDeliveryWorker(
  deps: Pick<ServiceDeps, 'db' | 'logger' | 'metrics'>,
  send: SendMessage,
  links: DeliveryLinks,
  keys: ClaimantKeys,
  pollIntervalMs = POLL_INTERVAL_MS,
): DeliveryWorker {
  const { db, logger, metrics } = deps;
  let stopped = false;
  const drain = async (): Promise<number> => {
    let count = 0;
    while (!stopped) {
      const due = await deliveriesStore(db).leaseDue(LEASE_SECONDS, keys);
      if (!due) break;
      count += 1;
      await attempt(db, send, due, logger, links);
    }
    return count;
  };
  const task = startPeriodicTask({ name: 'delivery', work: drain, intervalMs: pollIntervalMs, logger, metrics });
  return {
    kick: () => void task.wake(),
    async stop() {
      stopped = true;
      await task.stop();
    },
  };
}

/**
 * The worker as the service holds it: started with the background work; `kick` wakes it after a
 * status update or an access-link request commits (a no-op before it starts).
 */
export function deliveryWorkerHandle(
  settings: {
    SMTP_URL?: string;
    SMTP_FROM: string;
    SMS_WEBHOOK_URL?: string;
    PUBLIC_BASE_URL: string;
    EXPORT_LINK_TTL_HOURS: number;
    NODE_ENV: string;
  } & Brand &
    Parameters<typeof claimantPrivacyFor>[1],
) {
  let worker: DeliveryWorker | undefined;
  return {
    kick: () => worker?.kick(),
    start(deps: ServiceDeps): DeliveryWorker {
      worker = startDeliveryWorker(
        deps,
        createMessageSender(settings, deps.logger),
        { publicBaseUrl: settings.PUBLIC_BASE_URL, exportLinkTtlHours: settings.EXPORT_LINK_TTL_HOURS },
        claimantPrivacyFor(deps, settings).keys,
      );
      return worker;
    },
  };
}
