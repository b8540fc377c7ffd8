import { Gauge } from 'prom-client';
import type { Knex } from '@platform/db';
import type { ServiceDeps } from '@platform/runtime';

/**
 * The virus-scan backlog, read when scraped: `claims_attachments_awaiting_scan` files stored but not yet
 * decided (clamd was down), and `claims_attachments_awaiting_scan_oldest_seconds` how long the oldest has waited.
 */
export function registerAttachmentScanMetrics(deps: Pick<ServiceDeps, 'db' | 'metrics' | 'logger'>): void {
  const backlog = () => scanBacklog(deps.db);
  let reading: ReturnType<typeof backlog> | undefined;
  // one query per scrape serves both gauges
  const read = () => (reading ??= backlog().finally(() => setTimeout(() => (reading = undefined), 0)));
  const gauge = (name: string, help: string, pick: (b: Awaited<ReturnType<typeof backlog>>) => number) =>
    new Gauge({
      name,
      help,
      registers: [deps.metrics],
      async collect() {
        try {
          this.set(pick(await read()));
        } catch (error) {
          deps.logger.warn({ err: error }, `could not read ${name} for /metrics`);
        }
      },
    });
  gauge('claims_attachments_awaiting_scan', 'Attachments stored but not yet decided by the virus scanner', (b) => b.files);
  gauge(
    'claims_attachments_awaiting_scan_oldest_seconds',
    'How long the oldest attachment awaiting a virus scan has waited (0 when none)',
    (b) => b.oldestSeconds,
  );
}

async function scanBacklog(db: Knex): Promise<{ files: number; oldestSeconds: number }> {
  const row = (await db('attachments')
    .where({ scan_status: 'pending' })
    .select(db.raw('count(*)::int AS files'), db.raw('coalesce(extract(epoch FROM now() - min(received_at)), 0)::float AS oldest'))
    .first()) as { files: number; oldest: number };
  return { files: Number(row.files), oldestSeconds: Math.max(0, Number(row.oldest)) };
}
