import { Counter, Histogram, Registry } from 'prom-client';
import { BoundCounter, BoundHistogram } from './bound-metrics';

const BUCKETS = [0.001, 0.005, 0.01, 0.25, 1];
const LABEL_NAMES = ['method', 'route', 'status'] as const;
type Labels = Record<(typeof LABEL_NAMES)[number], string>;

/** The same records through prom-client's Counter and Histogram and through the bound ones, in registries of their own. */
function recordBoth(records: { labels: Labels; seconds: number }[]) {
  const registries = { prom: new Registry(), bound: new Registry() };
  for (const registry of Object.values(registries)) registry.setDefaultLabels({ service: 'metrics-test' });
  const histogramOptions = { name: 'request_seconds', help: 'Request "duration"\\ by route', labelNames: LABEL_NAMES, buckets: BUCKETS };
  const counterOptions = { name: 'requests_total', help: 'Requests by route', labelNames: LABEL_NAMES };
  const promHistogram = new Histogram({ ...histogramOptions, registers: [registries.prom] });
  const promCounter = new Counter({ ...counterOptions, registers: [registries.prom] });
  const boundHistogram = new BoundHistogram({ ...histogramOptions, registers: [registries.bound] });
  const boundCounter = new BoundCounter({ ...counterOptions, registers: [registries.bound] });
  for (const { labels, seconds } of records) {
    promHistogram.labels(labels).observe(seconds);
    promCounter.labels(labels).inc();
    boundHistogram.series({ ...labels }).observe(seconds);
    boundCounter.series({ ...labels }).inc();
  }
  return { registries, boundHistogram, boundCounter };
}

describe('bound metrics', () => {
  const get = { method: 'GET', route: '/api/claims/public/claims/:id/status', status: '200' };
  const odd = { method: 'POST', route: '/a "quoted" \\ route\nline', status: '500' };
  const records = [
    ...[0, 0.0005, 0.001, 0.0010001, 0.004, 0.25, 0.3, 1, 7.5, 0.1 + 0.2].map((seconds) => ({ labels: get, seconds })),
    ...[0.002, 12].map((seconds) => ({ labels: odd, seconds })),
  ];

  it('expose exactly what prom-client exposes for the same records, as text and as JSON', async () => {
    const { registries } = recordBoth(records);
    const promText = await registries.prom.metrics();
    expect(promText).toContain('request_seconds_bucket{le="0.001",service="metrics-test",method="GET"');
    expect(await registries.bound.metrics()).toBe(promText);
    // prom-client's JSON also carries each bucket's exemplar (null: exemplars are off); the bound ones keep none.
    const withoutExemplars = (metrics: Awaited<ReturnType<Registry['getMetricsAsJSON']>>) =>
      metrics.map((metric) => ({
        ...metric,
        values: metric.values.map((value) => {
          const { exemplar: _exemplar, ...rest } = value as typeof value & { exemplar?: unknown };
          return rest;
        }),
      }));
    expect(await registries.bound.getMetricsAsJSON()).toEqual(withoutExemplars(await registries.prom.getMetricsAsJSON()));
  });

  it('give the same series for the same label set, however the labels object is built', async () => {
    const { registries, boundHistogram, boundCounter } = recordBoth([]);
    boundHistogram.series({ status: '200', route: '/r', method: 'GET' }).observe(0.002);
    boundHistogram.series({ method: 'GET', route: '/r', status: '200' }).observe(0.02);
    boundCounter.series({ method: 'GET', route: '/r', status: '200' }).inc();
    boundCounter.series({ route: '/r', status: '200', method: 'GET' }).inc();
    const text = await registries.bound.metrics();
    expect(text).toMatch(/^request_seconds_count\{service="metrics-test",method="GET",route="\/r",status="200"\} 2$/m);
    expect(text).toMatch(/^requests_total\{method="GET",route="\/r",status="200",service="metrics-test"\} 2$/m);
  });

  it('refuse a value that is not a number, as prom-client does, and forget every series on reset', async () => {
    const { registries, boundHistogram } = recordBoth(records);
    expect(() => boundHistogram.series(get).observe(Number.NaN)).toThrow(TypeError);
    registries.bound.resetMetrics();
    const text = await registries.bound.metrics();
    expect(text).not.toMatch(/^request_seconds_count/m);
    expect(text).not.toMatch(/^requests_total/m);
  });
});
