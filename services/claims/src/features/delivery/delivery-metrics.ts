import { Gauge } from 'prom-client';
import type { ServiceDeps } from '@platform/runtime';
import { deliveriesStore } from './delivery-store';

/** `claims_with_failed_delivery`: claims with at least one message that could not be delivered, counted when scraped. */
export function registerDeliveryMetrics(deps: Pick<ServiceDeps, 'db' | 'metrics' | 'logger'>): void {
  new Gauge({
    name: 'claims_with_failed_delivery',
    help: 'Claims with at least one message to the claimant whose delivery failed for good',
    registers: [deps.metrics],
    async collect() {
      try {
        this.set(await deliveriesStore(deps.db).countClaimsWithFailedDelivery());
      } catch (error) {
        deps.logger.warn({ err: error }, 'could not count claims with a failed delivery for /metrics');
      }
    },
  });
}
