import { withTransactional, type Knex } from '@platform/db';
import { startPeriodicTask, type PeriodicTask } from '@platform/http';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { currentPeriods, controlsStore } from '../controls';
import { runsService } from './runs-service';

/** The `sub` recorded as the creator (and audit actor) of the runs the scheduler opens. */
export const SCHEDULER_ACTOR = 'evidence-scheduler';

const PAGE = 100;

export interface RunSchedulerDeps {
  db: Knex;
  exchange: string;
  logger: Logger;
  metrics?: Registry;
}

/**
 * Opens a run for each due control (GET /controls/due), each in its own transaction through the same use
 * case as a person's run (audited, announced). Safe with several replicas: see runsService.openDue.
 */
export function runScheduler(deps: RunSchedulerDeps) {
  const runs = withTransactional(runsService({ exchange: deps.exchange }), deps.db);
  const controls = controlsStore(deps.db);
  return {
    /** One pass at `now`; the number of runs this pass opened. */
    async openDueRuns(now = new Date()): Promise<number> {
      const periods = currentPeriods(now);
      let opened = 0;
      let afterKey: string | undefined;
      for (;;) {
        const due = await controls.due(periods, { limit: PAGE, afterKey });
        for (const control of due) {
          if (await runs.transactional((s) => s.openDue(control.control_id, now, SCHEDULER_ACTOR))) opened += 1;
        }
        if (due.length < PAGE) return opened;
        afterKey = due[due.length - 1].key;
      }
    },
  };
}

/** Runs a pass now and every `intervalMs`; stop() waits for a pass under way. */
export function startRunScheduler(deps: RunSchedulerDeps, intervalMs: number): PeriodicTask {
  const scheduler = runScheduler(deps);
  return startPeriodicTask({
    name: 'run-scheduler',
    work: () => scheduler.openDueRuns(),
    intervalMs,
    logger: deps.logger,
    metrics: deps.metrics,
  });
}
