import pino from 'pino';
import { createDatabase, type Knex } from '@platform/db';
import { currentPeriod } from '../controls/control-periods';
import { controlsStore } from '../controls';
import { createControl, startWorkflowService, type WorkflowService } from '../../testing/workflow-test-kit';
import { SCHEDULER_ACTOR, runScheduler } from './run-scheduler';

const silent = pino({ level: 'silent' });

describe('the run scheduler', () => {
  describe('with several replicas on one database', () => {
    let kit: WorkflowService;
    const replicaPools: Knex[] = [];

    /** A scheduler as another replica would run it: its own pool, as the service's database role. */
    const replica = () => {
      const db = createDatabase({ url: kit.config.DATABASE_URL, poolMax: 4 });
      replicaPools.push(db);
      return runScheduler({ db, exchange: kit.config.EVIDENCE_EXCHANGE, logger: silent });
    };
    const runsOf = (controlId: string) =>
      kit
        .db('evidence_runs as r')
        .join('evidence_control_versions as v', 'v.control_version_id', 'r.control_version_id')
        .where('v.control_id', controlId)
        .select(
          'r.status',
          'r.created_by',
          'r.control_version_id',
          kit.db.raw("to_char(r.period_start, 'YYYY-MM-DD') AS period_start"),
          kit.db.raw("to_char(r.period_end, 'YYYY-MM-DD') AS period_end"),
        );

    beforeAll(async () => {
      kit = await startWorkflowService();
    });
    afterAll(async () => {
      await Promise.all(replicaPools.map((db) => db.destroy()));
      await kit?.stop();
    });

    it('is off by default: no run opens by itself', async () => {
      const control = await createControl(kit, { frequency: 'daily' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await runsOf(control.control_id)).toHaveLength(0);
      // leave nothing due for the next tests
      await replica().openDueRuns();
    });

    it('opens exactly one run per due control and period when replicas run at the same time, audited and announced', async () => {
      const now = new Date();
      const dueControls = await Promise.all(
        (['daily', 'weekly', 'monthly', 'quarterly', 'annual'] as const).map((frequency) => createControl(kit, { frequency })),
      );
      const never = await Promise.all([createControl(kit, { frequency: 'continuous' }), createControl(kit, { frequency: 'ad_hoc' })]);
      const before = await kit.counts();

      const opened = await Promise.all([replica(), replica(), replica()].map((scheduler) => scheduler.openDueRuns(now)));

      expect(opened.reduce((sum, n) => sum + n, 0)).toBe(dueControls.length);
      for (const [index, frequency] of (['daily', 'weekly', 'monthly', 'quarterly', 'annual'] as const).entries()) {
        const runs = await runsOf(dueControls[index].control_id);
        expect(runs).toHaveLength(1);
        expect(runs[0]).toEqual({
          status: 'open',
          created_by: SCHEDULER_ACTOR,
          control_version_id: dueControls[index].current_version.control_version_id,
          ...currentPeriod(frequency, now),
        });
      }
      for (const control of never) expect(await runsOf(control.control_id)).toHaveLength(0);

      const after = await kit.counts();
      expect(after.audit - before.audit).toBe(dueControls.length);
      expect(after.outbox - before.outbox).toBe(dueControls.length);
      const records = await kit
        .db('audit_log')
        .where({ action: 'evidence.run_created', actor: SCHEDULER_ACTOR })
        .whereIn('entity_id', await kit.db('evidence_runs').where({ created_by: SCHEDULER_ACTOR }).pluck('run_id'));
      const eventIds = records.map((record) => record.event_id);
      await kit.events.waitFor((received) =>
        eventIds.every((id) => received.some((event) => event.body.id === id && event.routingKey === 'evidence.run_created')),
      );

      const listed = await kit.http().get('/api/evidence/controls/due').set('Authorization', kit.auth.writer).expect(200);
      expect(listed.body.items).toEqual([]);
      expect(await replica().openDueRuns(now)).toBe(0);
    });

    it('checks again under the control’s lock: a run opened while it waited is not doubled', async () => {
      const control = await createControl(kit, { frequency: 'weekly' });
      const week = currentPeriod('weekly', new Date());
      let pass: Promise<number> | undefined;
      await kit.db.transaction(async (trx) => {
        await controlsStore(trx).lock(control.control_id);
        pass = replica().openDueRuns();
        await waitForLockWaiter(kit.db);
        // someone else's run of one day of this week commits while the scheduler waits for the lock
        await trx('evidence_runs').insert({
          run_id: '5d0c7a10-7b1e-4c55-9a0f-0c8d2f6e1a01',
          control_version_id: control.current_version.control_version_id,
          period_start: week.period_start,
          period_end: week.period_start,
          status: 'open',
          created_by: 'someone',
        });
      });
      expect(await pass).toBe(0);
      expect(await runsOf(control.control_id)).toHaveLength(1);
    });
  });

  it('runs in the service with RUN_SCHEDULER=true, every RUN_SCHEDULER_INTERVAL_MS', async () => {
    const kit = await startWorkflowService({ RUN_SCHEDULER: 'true', RUN_SCHEDULER_INTERVAL_MS: '200' });
    try {
      const control = await createControl(kit, { frequency: 'monthly' });
      const list = () => kit.http().get(`/api/evidence/runs?control=${control.key}`).set('Authorization', kit.auth.examiner).expect(200);
      const deadline = Date.now() + 10_000;
      while ((await list()).body.items.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      const { body } = await list();
      expect(body.items).toEqual([
        expect.objectContaining({ created_by: SCHEDULER_ACTOR, status: 'open', ...currentPeriod('monthly', new Date()) }),
      ]);
    } finally {
      await kit.stop();
    }
  });
});

/** Until some session waits for an advisory lock (the scheduler, blocked on the control's lock). */
async function waitForLockWaiter(db: Knex): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rows } = (await db.raw("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")) as {
      rows: { n: number }[];
    };
    if (rows[0].n > 0) return;
    if (Date.now() > deadline) throw new Error('the scheduler never waited for the control lock');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
