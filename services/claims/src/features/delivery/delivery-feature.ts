import type { ServiceDeps } from '@platform/runtime';
import { createMessageSender } from './delivery-channels';
import { startDeliveryWorker, type DeliveryWorker } from './delivery-worker';

/**
 * The delivery queue's worker, started with the service's background work; `kick` wakes it after a
 * status update commits (a no-op before it starts).
 */
export function deliveryFeature(settings: { SMTP_URL?: string; SMTP_FROM: string; SMS_WEBHOOK_URL?: string }) {
  let worker: DeliveryWorker | undefined;
  return {
    kick: () => worker?.kick(),
    start(deps: ServiceDeps): DeliveryWorker {
      worker = startDeliveryWorker(deps.db, createMessageSender(settings, deps.logger), deps.logger);
      return worker;
    },
  };
}
