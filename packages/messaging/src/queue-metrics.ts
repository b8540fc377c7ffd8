import { Gauge, type Registry } from 'prom-client';
import { withTimeout } from '@platform/http';
import type { EventTransport } from './transport';

const DEPTH_TIMEOUT_MS = 2000;

/**
 * `messaging_queue_depth{queue}`: the messages waiting in a consumer's queue, asked of the broker at each
 * scrape. A depth that keeps growing means the consumer falls behind (or is down); while the broker cannot
 * be asked the series is absent, and broker_connection_up says why.
 */
export function queueDepthGauge(registry: Registry, transport: EventTransport, queue: string): Gauge {
  return new Gauge({
    name: 'messaging_queue_depth',
    help: "Messages waiting in the consumer's queue, read from the broker at each scrape",
    labelNames: ['queue'],
    registers: [registry],
    async collect() {
      try {
        this.set({ queue }, await withTimeout(transport.queueDepth(queue), DEPTH_TIMEOUT_MS));
      } catch {
        this.remove({ queue });
      }
    },
  });
}
