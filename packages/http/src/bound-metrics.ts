import type { Metric, Registry } from 'prom-client';

/** A counter of one label set, bound once. */
export interface CounterSeries {
  inc(): void;
}

/** A histogram of one label set, bound once. */
export interface HistogramSeries {
  observe(value: number): void;
}

interface ExportedValue {
  value: number;
  labels: Record<string, string | number>;
  sharedLabels?: Record<string, string>;
  metricName?: string;
}

interface MetricOptions<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  registers: Registry[];
}

/**
 * Metrics whose label sets are bound once (`series(labels)`) and then recorded with plain arithmetic, for the
 * per-request metrics: prom-client's own Counter and Histogram validate and hash the label set on every
 * increment and observation, even through a child from `labels()`, which showed on the gateway's hot path
 * (docs/BENCHMARKS.md). They register in a prom-client Registry like its own metrics, and their exposition is
 * the one a prom-client Counter or Histogram gives for the same records (tested against it).
 */
abstract class BoundMetric<L extends string, S> {
  readonly name: string;
  readonly help: string;
  readonly aggregator = 'sum';
  private readonly labelNames: readonly L[];
  protected readonly all = new Map<string, { labels: Record<L, string>; series: S }>();

  constructor(options: MetricOptions<L>) {
    this.name = options.name;
    this.help = options.help;
    this.labelNames = options.labelNames;
    for (const registry of options.registers) registry.registerMetric(this as unknown as Metric);
  }

  /** The series of `labels`, made on first use: keep it, and record through it. */
  series(labels: Record<L, string>): S {
    const key = this.labelNames.map((name) => labels[name]).join('\u0000');
    let entry = this.all.get(key);
    if (!entry) {
      const own = Object.fromEntries(this.labelNames.map((name) => [name, labels[name]])) as Record<L, string>;
      this.all.set(key, (entry = { labels: own, series: this.newSeries() }));
    }
    return entry.series;
  }

  protected abstract newSeries(): S;

  protected abstract exported(): ExportedValue[];

  abstract readonly type: 'counter' | 'histogram';

  /** The Registry's reading for the text exposition. */
  async getForPromString() {
    return { name: this.name, help: this.help, type: this.type, values: this.exported(), aggregator: this.aggregator };
  }

  /** The Registry's reading for JSON: shared labels merged into each value's own, as prom-client does. */
  async get() {
    const values = this.exported().map(({ sharedLabels, labels, ...value }) => ({ ...value, labels: { ...labels, ...sharedLabels } }));
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.all.clear();
  }
}

export class BoundCounter<L extends string> extends BoundMetric<L, CounterSeries & { value: number }> {
  readonly type = 'counter';

  protected newSeries() {
    return {
      value: 0,
      inc() {
        this.value += 1;
      },
    };
  }

  protected exported(): ExportedValue[] {
    return [...this.all.values()].map(({ labels, series }) => ({ value: series.value, labels }));
  }
}

export class BoundHistogram<L extends string> extends BoundMetric<L, HistogramSeries & { counts: number[]; sum: number; count: number }> {
  readonly type = 'histogram';
  private readonly buckets: readonly number[];

  constructor(options: MetricOptions<L> & { buckets: readonly number[] }) {
    super(options);
    this.buckets = [...options.buckets].sort((a, b) => a - b);
  }

  protected newSeries() {
    const buckets = this.buckets;
    return {
      counts: buckets.map(() => 0),
      sum: 0,
      count: 0,
      observe(value: number) {
        if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
        let bucket = 0;
        while (bucket < buckets.length && value > buckets[bucket]) bucket++;
        if (bucket < buckets.length) this.counts[bucket] += 1;
        this.sum += value;
        this.count += 1;
      },
    };
  }

  protected exported(): ExportedValue[] {
    const bucketName = `${this.name}_bucket`;
    return [...this.all.values()].flatMap(({ labels, series }): ExportedValue[] => {
      let cumulative = 0;
      return [
        ...this.buckets.map((le, index) => {
          cumulative += series.counts[index];
          return { labels: { le }, sharedLabels: labels, value: cumulative, metricName: bucketName };
        }),
        { labels: { le: '+Inf' }, sharedLabels: labels, value: series.count, metricName: bucketName },
        { labels: {}, sharedLabels: labels, value: series.sum, metricName: `${this.name}_sum` },
        { labels: {}, sharedLabels: labels, value: series.count, metricName: `${this.name}_count` },
      ];
    });
  }
}
