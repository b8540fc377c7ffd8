import pino from 'pino';
import { Registry } from 'prom-client';
import { nextDelay, retryDelayMs, startPeriodicTask, type PeriodicTask } from './periodic-task';

const logger = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits (up to 5 s, so a loaded machine does not fail it) until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 5000; !condition(); await sleep(5))
    if (Date.now() > deadline) throw new Error('condition not met in 5 s');
}

describe('startPeriodicTask', () => {
  const tasks: PeriodicTask[] = [];
  const start = (options: Omit<Parameters<typeof startPeriodicTask>[0], 'logger'>) => {
    const task = startPeriodicTask({ logger, ...options });
    tasks.push(task);
    return task;
  };
  afterEach(async () => {
    for (const task of tasks.splice(0)) await task.stop();
  });

  it('never runs two passes at once, however slow a pass and however short the interval', async () => {
    let inFlight = 0;
    let most = 0;
    let passes = 0;
    const task = start({
      name: 'slow',
      intervalMs: 1,
      work: async () => {
        most = Math.max(most, ++inFlight);
        await sleep(30);
        inFlight--;
        passes++;
      },
    });
    await Promise.all([task.runNow(), task.runNow(), task.runNow()]);
    await until(() => passes >= 3);
    expect(most).toBe(1);
  });

  it('wake() runs a pass that starts after the call: at once when idle, right after the pass in flight otherwise', async () => {
    let seen = 0;
    let items = 0;
    const task = start({
      name: 'woken',
      intervalMs: 60000,
      runAtStart: false,
      work: async () => {
        const now = items;
        await sleep(30);
        seen = now;
      },
    });
    await task.wake();
    expect(seen).toBe(0);
    items = 1;
    const inFlight = task.runNow();
    await sleep(5);
    items = 2; // after the pass in flight looked
    const woken = [task.wake(), task.wake()];
    await inFlight;
    expect(seen).toBe(1);
    await Promise.all(woken);
    expect(seen).toBe(2);
  });

  it('stop() waits for the pass in flight, and no pass starts after it', async () => {
    let passes = 0;
    let finished = false;
    const task = start({
      name: 'stopping',
      intervalMs: 5,
      work: async () => {
        passes++;
        finished = false;
        await sleep(80);
        finished = true;
      },
    });
    await sleep(20);
    await task.stop();
    expect(finished).toBe(true);
    const after = passes;
    await sleep(60);
    expect(passes).toBe(after);
    await task.runNow();
    expect(passes).toBe(after);
  });

  it('keeps running after a failed pass, and counts it', async () => {
    const metrics = new Registry();
    let calls = 0;
    start({
      name: 'flaky',
      intervalMs: 5,
      jitter: 0,
      metrics,
      work: async () => {
        if (++calls === 1) throw new Error('database away');
        return 1;
      },
    });
    await until(() => calls >= 3);
    await sleep(5);
    const text = await metrics.metrics();
    expect(text).toMatch(/^periodic_task_failures_total\{task="flaky"\} 1$/m);
    expect(Number(/^periodic_task_last_success_timestamp_seconds\{task="flaky"\} (\S+)$/m.exec(text)?.[1])).toBeCloseTo(
      Date.now() / 1000,
      -1,
    );
    expect(Number(/^periodic_task_duration_seconds_count\{task="flaky"\} (\d+)$/m.exec(text)?.[1])).toBeGreaterThanOrEqual(3);
  });

  it('with a backoff, waits longer after each failed pass in a row instead of the interval, and the interval again after a success', async () => {
    const started: number[] = [];
    start({
      name: 'backing-off',
      intervalMs: 60000,
      jitter: 0,
      backoff: { baseMs: 40, maxMs: 160 },
      work: async () => {
        started.push(Date.now());
        if (started.length <= 4) throw new Error('database away');
      },
    });
    await until(() => started.length === 5);
    const waits = started.slice(1).map((at, n) => at - started[n]);
    [40, 80, 160, 160].forEach((least, n) => expect(waits[n]).toBeGreaterThanOrEqual(least - 5));
    await sleep(400);
    expect(started).toHaveLength(5);
  });

  it('shares one set of metrics between the tasks of a registry, labelled by task', async () => {
    const metrics = new Registry();
    const a = start({ name: 'a', intervalMs: 1000, metrics, work: async () => undefined });
    const b = start({ name: 'b', intervalMs: 1000, metrics, work: async () => undefined });
    await Promise.all([a.runNow(), b.runNow()]);
    const text = await metrics.metrics();
    expect(text).toMatch(/task="a"/);
    expect(text).toMatch(/task="b"/);
  });

  it('waits only after the first interval when told not to run at start', async () => {
    let passes = 0;
    const started = Date.now();
    start({ name: 'later', intervalMs: 300, jitter: 0, runAtStart: false, work: async () => void passes++ });
    expect(passes).toBe(0);
    await until(() => passes === 1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('spreads the waits around the interval by the jitter, never below zero', () => {
    expect(nextDelay(1000, 0.1, () => 0)).toBe(900);
    expect(nextDelay(1000, 0.1, () => 1)).toBe(1100);
    expect(nextDelay(1000, 0.1, () => 0.5)).toBe(1000);
    expect(nextDelay(1000, 0, () => 0)).toBe(1000);
    expect(nextDelay(10, 5, () => 0)).toBe(0);
  });

  it('doubles the retry delay per attempt from the base, up to the cap', () => {
    expect([1, 2, 3, 4, 5].map((attempt) => retryDelayMs(attempt, 250, 2000))).toEqual([250, 500, 1000, 2000, 2000]);
    expect(retryDelayMs(0, 250, 2000)).toBe(250);
  });
});
