import { randomUUID } from 'node:crypto';
import type { Knex } from '@platform/db';
import { decodeCursor, pageOf, problems } from '@platform/http';
import { currentPeriods, type Period, controlsStore } from '../controls';
import { evidenceStore, type EvidenceItem } from '../evidence';
import { recordChange } from '../../shared/record-change';
import { runCreated, runSubmitted, runDecided } from './runs-events';
import type { CreateRunRequest, Decision, DecisionRequest, Run, RunState } from './runs-schemas';
import type { ListRunsQuery } from './runs-list-schemas';
import { publicRun, runsStore, type SegregationOfDutiesConflict } from './runs-store';

const DEFAULT_LIMIT = 25;

const SEGREGATION_OF_DUTIES_REASONS: Record<SegregationOfDutiesConflict, string> = {
  created: 'created',
  submitted: 'submitted',
  added_evidence: 'added evidence to',
};

export interface RunListPage {
  items: RunState[];
  next_cursor: string | null;
}

export interface RunsDeps {
  exchange: string;
}

export type RunDetail = RunState & { evidence: EvidenceItem[]; decisions: Decision[] };

/** Runs of a control version over a period: creation, submission for review, and the final decision. */
export const runsService = (deps: RunsDeps) => (db: Knex) => {
  const runs = runsStore(db);
  const evidence = evidenceStore(db);
  const controls = controlsStore(db);

  async function lockedRun(runId: string): Promise<RunState> {
    const run = await runs.find(runId, { lock: true });
    if (!run) throw problems.notFound(`No run ${runId}`);
    return run;
  }

  /** Inserts the open run, audited and announced; undefined when the version already has a run of this period. */
  async function open(
    version: { control_id: string; control_version_id: string },
    period: Period,
    actor: string,
  ): Promise<Run | undefined> {
    const runId = randomUUID();
    const { control_version_id } = version;
    const { period_start, period_end } = period;
    if (!(await runs.insert({ run_id: runId, control_version_id, period_start, period_end, created_by: actor }))) return undefined;
    await recordChange(db, deps.exchange, {
      event: runCreated,
      entity_type: 'run',
      entity_id: runId,
      actor,
      data: { run_id: runId, control_id: version.control_id, control_version_id, period_start, period_end },
    });
    return publicRun((await runs.find(runId)) as RunState);
  }

  return {
    async create(request: CreateRunRequest, actor: string): Promise<Run> {
      if (request.period_start > request.period_end) {
        throw problems.unprocessable(`period_start ${request.period_start} is after period_end ${request.period_end}`);
      }
      const version = await controls.findVersion(request.control_version_id);
      if (!version) throw problems.unprocessable(`No control version ${request.control_version_id}`);
      await controls.lock(version.control_id);
      const run = await open(version, request, actor);
      if (!run) {
        const existing = await runs.findByPeriod(request.control_version_id, request.period_start, request.period_end);
        throw problems.conflict(
          `Run ${existing} already covers control version ${request.control_version_id} for ${request.period_start}..${request.period_end}`,
          {
            existing_run_id: existing,
          },
        );
      }
      return run;
    },

    /**
     * Opens the run of the control's current period at `now` if the control is still due then (on a
     * transaction). The control's lock, also taken by create, makes the check and the insert one step:
     * however many schedulers race, a control gets one run per period. Undefined when it is not due.
     */
    async openDue(controlId: string, now: Date, actor: string): Promise<Run | undefined> {
      await controls.lock(controlId);
      const [due] = await controls.due(currentPeriods(now), { limit: 1, controlId });
      return due && open(due, due, actor);
    },

    /** A page of runs, newest first; `approver` turns the list into their approval queue. */
    async list(query: ListRunsQuery, approver?: string): Promise<RunListPage> {
      const { limit = DEFAULT_LIMIT, cursor, awaiting: _awaiting, ...filters } = query;
      if (filters.period_from !== undefined && filters.period_to !== undefined && filters.period_from >= filters.period_to) {
        throw problems.unprocessable(
          `period_from ${filters.period_from} must be before period_to ${filters.period_to} (the range is half-open)`,
        );
      }
      const after = cursor === undefined ? undefined : decodeCursor(cursor);
      const rows = await runs.page({ ...filters, awaitingDecisionBy: approver }, after, limit + 1);
      return pageOf(
        rows,
        limit,
        ({ position: _position, ...run }) => run,
        (row) => row.position,
      );
    },

    async get(runId: string): Promise<RunDetail> {
      const run = await runs.find(runId);
      if (!run) throw problems.notFound(`No run ${runId}`);
      const items = await evidence.listForRun(runId);
      return { ...run, evidence: items, decisions: await runs.decisions(runId) };
    },

    async submit(runId: string, actor: string): Promise<RunState> {
      const run = await lockedRun(runId);
      if (run.status !== 'open') throw problems.conflict(`Run ${runId} is ${run.status}; only an open run can be submitted`);
      await runs.transition(runId, 'open', 'in_review', { submitted_by: actor, submitted_at: db.raw('clock_timestamp()') });
      const evidenceCount = await evidence.countForRun(runId);
      await recordChange(db, deps.exchange, {
        event: runSubmitted,
        entity_type: 'run',
        entity_id: runId,
        actor,
        data: { run_id: runId, status: 'in_review', evidence_count: evidenceCount },
      });
      return (await runs.find(runId)) as RunState;
    },

    async decide(runId: string, request: DecisionRequest, actor: string): Promise<Decision & { status: string }> {
      const run = await lockedRun(runId);
      if (run.status === 'approved' || run.status === 'rejected')
        throw problems.conflict(`Run ${runId} is already ${run.status}; decisions are final`);
      if (run.status !== 'in_review') throw problems.conflict(`Run ${runId} is ${run.status}; only a run in review can be decided`);
      const conflict = await runs.segregationOfDutiesConflict(runId, actor);
      if (conflict)
        throw problems.forbidden(
          `Segregation of duties: you ${SEGREGATION_OF_DUTIES_REASONS[conflict]} this run, so someone else must decide it`,
        );
      await runs.transition(runId, 'in_review', request.decision);
      const decision = await runs.insertDecision({
        decision_id: randomUUID(),
        run_id: runId,
        decision: request.decision,
        rationale: request.rationale,
        decided_by: actor,
      });
      await recordChange(db, deps.exchange, {
        event: runDecided,
        entity_type: 'run',
        entity_id: runId,
        actor,
        data: { run_id: runId, decision_id: decision.decision_id, decision: decision.decision },
      });
      return { ...decision, status: request.decision };
    },
  };
};
