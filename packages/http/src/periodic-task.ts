import type { Logger } from 'pino';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export interface PeriodicTaskOptions {
  /** The task's name in logs and in the `task` label of its metrics. */
  name: string;
  /** One pass of the work; a number it returns is how much it did (logged when more than 0). */
  work: () => Promise<number | void>;
  intervalMs: number;
  logger: Logger;
  metrics?: Registry;
  /** Each wait is the interval ± this fraction of it, so replicas started together do not run in step. Default 0.1. */
  jitter?: number;
  /** Run a first pass at once (default) or only after the first interval. */
  runAtStart?: boolean;
  /**
   * For work whose dependency can be away (the database): after a failed pass the next waits `baseMs`,
   * doubled for each further failure in a row, up to `maxMs`, instead of the interval; a success resets it.
   */
  backoff?: { baseMs: number; maxMs: number };
  /** For tests: the source of randomness of the jitter. */
  random?: () => number;
}

export interface PeriodicTask {
  /** Runs a pass now, or joins the pass in flight (never two at once). */
  runNow(): Promise<void>;
  /**
   * Runs a pass that starts after this call: at once when idle, else right after the pass in flight (the
   * callers meanwhile share that one). For work that a new item should wake, which a pass in flight may
   * have looked past.
   */
  wake(): Promise<void>;
  /** No pass starts after this; resolves once the pass in flight has ended. */
  stop(): Promise<void>;
}

/** The wait before the `attempt`-th retry (from 1): `baseMs` doubled per attempt, never more than `maxMs`. */
export function retryDelayMs(attempt: number, baseMs = 200, maxMs = 10000): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}

/** The wait before the next pass: `intervalMs` ± `jitter` of it, never negative. */
export function nextDelay(intervalMs: number, jitter: number, random: () => number = Math.random): number {
  return Math.max(0, Math.round(intervalMs * (1 + jitter * (2 * random() - 1))));
}

interface TaskMetrics {
  lastSuccess: Gauge;
  duration: Histogram;
  failures: Counter;
}

const metricsByRegistry = new WeakMap<Registry, TaskMetrics>();

function taskMetrics(registry: Registry): TaskMetrics {
  let metrics = metricsByRegistry.get(registry);
  if (!metrics) {
    metrics = {
      lastSuccess: new Gauge({
        name: 'periodic_task_last_success_timestamp_seconds',
        help: 'When each background task last finished a pass without error (Unix time)',
        labelNames: ['task'],
        registers: [registry],
      }),
      duration: new Histogram({
        name: 'periodic_task_duration_seconds',
        help: 'How long each pass of a background task took, successful or not',
        labelNames: ['task'],
        buckets: [0.005, 0.025, 0.1, 0.5, 1, 5, 30, 120],
        registers: [registry],
      }),
      failures: new Counter({
        name: 'periodic_task_failures_total',
        help: 'Passes of a background task that ended in an error',
        labelNames: ['task'],
        registers: [registry],
      }),
    };
    metricsByRegistry.set(registry, metrics);
  }
  return metrics;
}

/**
 * The one runner of the services' background work (and of the outbox relay, which is why it lives here,
 * below `@platform/messaging`): one pass at a time (a slow pass delays the next, it is never overlapped),
 * the next pass scheduled after the last one ends, with jitter; a failed pass is logged and counted and the
 * next runs as planned (after the backoff, when the task has one); stop() waits for the pass in flight.
 * Per task: the time of the last success, the duration of each pass and the failures, as metrics.
 */
export function startPeriodicTask(options: PeriodicTaskOptions): PeriodicTask {
  const { name, work, intervalMs, logger, backoff, jitter = 0.1, random = Math.random } = options;
  const metrics = options.metrics && taskMetrics(options.metrics);
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let failuresInARow = 0;

  const pass = async () => {
    const started = process.hrtime.bigint();
    try {
      const done = await work();
      failuresInARow = 0;
      metrics?.lastSuccess.set({ task: name }, Date.now() / 1000);
      if (typeof done === 'number' && done > 0) logger.info({ task: name, count: done }, `${name}: done`);
    } catch (error) {
      failuresInARow += 1;
      metrics?.failures.inc({ task: name });
      logger.warn({ err: error, task: name }, `${name}: pass failed; the next runs as planned`);
    } finally {
      metrics?.duration.observe({ task: name }, Number(process.hrtime.bigint() - started) / 1e9);
    }
  };
  const schedule = () => {
    if (stopped) return;
    const wait = backoff && failuresInARow > 0 ? retryDelayMs(failuresInARow, backoff.baseMs, backoff.maxMs) : intervalMs;
    timer = setTimeout(() => void runNow(), nextDelay(wait, jitter, random));
    timer.unref();
  };
  const runNow = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (timer) clearTimeout(timer);
    running ??= pass().finally(() => {
      running = undefined;
      schedule();
    });
    return running;
  };
  const wake = (): Promise<void> => {
    if (stopped || !running) return runNow();
    next ??= running.then(() => {
      next = undefined;
      return runNow();
    });
    return next;
  };

  if (options.runAtStart === false) schedule();
  else void runNow();
  return {
    runNow,
    wake,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
