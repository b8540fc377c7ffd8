import { Gauge } from 'prom-client';
import type { ServiceDeps } from '@platform/runtime';
import { DEADLINES } from '../../shared/claim-deadlines';
import { deadlinesStore } from './deadlines-store';

/** `claims_deadline_breaches_open{deadline}`: open claims past a deadline unmet, counted when scraped. */
export function registerDeadlineMetrics(deps: Pick<ServiceDeps, 'db' | 'metrics' | 'logger'>): void {
  new Gauge({
    name: 'claims_deadline_breaches_open',
    help: 'Open claims past a deadline (acknowledgement, first_contact, next_update) that is still unmet',
    labelNames: ['deadline'],
    registers: [deps.metrics],
    async collect() {
      try {
        const counts = await deadlinesStore(deps.db).countOpenBreaches();
        for (const deadline of DEADLINES) this.set({ deadline }, counts[deadline]);
      } catch (error) {
        deps.logger.warn({ err: error }, 'could not count open deadline breaches for /metrics');
      }
    },
  });
}
