import { subjectKeySql } from '@platform/auth';
import type { Knex } from '@platform/db';
import { UUID_PATTERN, cursorTimestampSql, type NewestFirstPosition } from '@platform/http';
import type { Decision, Run, RunState, RunStatus } from './runs-schemas';

interface RunRow {
  run_id: string;
  control_version_id: string;
  period_start: string;
  period_end: string;
  status: RunStatus;
  created_by: string;
  created_at: Date;
  submitted_by: string | null;
  submitted_at: Date | null;
  control_id: string;
  control_key: string;
  control_version: number;
}

function toRunState(row: RunRow): RunState {
  return {
    run_id: row.run_id,
    control_version_id: row.control_version_id,
    period_start: row.period_start,
    period_end: row.period_end,
    status: row.status,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    control_id: row.control_id,
    control_key: row.control_key,
    control_version: row.control_version,
    submitted_by: row.submitted_by,
    submitted_at: row.submitted_at ? row.submitted_at.toISOString() : null,
  };
}

/** The fields of the contract's run representation, in its order. */
export function publicRun(run: RunState): Run {
  const { run_id, control_version_id, period_start, period_end, status, created_by, created_at } = run;
  return { run_id, control_version_id, period_start, period_end, status, created_by, created_at };
}

function toDecision(row: Omit<Decision, 'decided_at'> & { decided_at: Date }): Decision {
  return { ...row, decided_at: row.decided_at.toISOString() };
}

/** Runs joined with their control and version, in RunRow's columns. */
function runStates(db: Knex) {
  return db('evidence_runs as r')
    .join('evidence_control_versions as v', 'v.control_version_id', 'r.control_version_id')
    .join('evidence_controls as c', 'c.control_id', 'v.control_id')
    .select(
      'r.run_id',
      'r.control_version_id',
      db.raw("to_char(r.period_start, 'YYYY-MM-DD') as period_start"),
      db.raw("to_char(r.period_end, 'YYYY-MM-DD') as period_end"),
      'r.status',
      'r.created_by',
      'r.created_at',
      'r.submitted_by',
      'r.submitted_at',
      'c.control_id',
      'c.key as control_key',
      'v.version as control_version',
    );
}

/** Why someone may not decide a run: they did part of the work being reviewed. */
export type SegregationOfDutiesConflict = 'created' | 'submitted' | 'added_evidence';

/**
 * The segregation-of-duties rule, in one place for the decision and the approval queue: the approver
 * (bound three times, segregationOfDutiesBindings) must not have created the run, submitted it or added
 * evidence to it. NULL when they may decide; otherwise the first conflict.
 */
function segregationOfDutiesSql(run: string): string {
  const same = (column: string) => `${subjectKeySql(column)} = ${subjectKeySql('?')}`;
  return `CASE
    WHEN ${same(`${run}.created_by`)} THEN 'created'
    WHEN ${same(`${run}.submitted_by`)} THEN 'submitted'
    WHEN EXISTS (SELECT 1 FROM evidence_items e WHERE e.run_id = ${run}.run_id AND ${same('e.submitted_by')}) THEN 'added_evidence'
  END`;
}

const segregationOfDutiesBindings = (actor: string) => [actor, actor, actor];

export interface RunFilters {
  status?: RunStatus[];
  /** A control_id or key. */
  control?: string;
  period_from?: string;
  period_to?: string;
  created_by?: string;
  awaitingDecisionBy?: string;
}

export function runsStore(db: Knex) {
  return {
    /** Inserts the run unless the same control version and period already has one; false when it has. */
    async insert(run: {
      run_id: string;
      control_version_id: string;
      period_start: string;
      period_end: string;
      created_by: string;
    }): Promise<boolean> {
      const inserted = await db('evidence_runs')
        .insert({ ...run, status: 'open' })
        .onConflict(['control_version_id', 'period_start', 'period_end'])
        .ignore()
        .returning('run_id');
      return inserted.length > 0;
    },

    async findByPeriod(controlVersionId: string, periodStart: string, periodEnd: string): Promise<string | undefined> {
      const row = await db('evidence_runs')
        .where({ control_version_id: controlVersionId, period_start: periodStart, period_end: periodEnd })
        .first('run_id');
      return row?.run_id;
    },

    /** The run with its control; `lock` holds the run row until the transaction ends (state changes, evidence). */
    async find(runId: string, options: { lock?: boolean } = {}): Promise<RunState | undefined> {
      if (options.lock) await db('evidence_runs').where({ run_id: runId }).forUpdate().first('run_id');
      const row = await runStates(db).where('r.run_id', runId).first();
      return row ? toRunState(row) : undefined;
    },

    /**
     * Up to `limit` runs after `after`, newest first by (created_at, run_id). `awaitingDecisionBy` keeps
     * the runs in review that this `sub` may decide (segregationOfDutiesSql finds nothing against them).
     */
    async page(
      filters: RunFilters,
      after: NewestFirstPosition | undefined,
      limit: number,
    ): Promise<(RunState & { position: NewestFirstPosition })[]> {
      const query = runStates(db).select(db.raw(`${cursorTimestampSql('r.created_at')} AS cursor_created_at`));
      if (filters.status) query.whereIn('r.status', filters.status);
      if (filters.control !== undefined) {
        const control = filters.control;
        query.where((where) => {
          if (UUID_PATTERN.test(control)) where.orWhere('c.control_id', control.toLowerCase());
          where.orWhereRaw('lower(c.key) = lower(?)', [control]);
        });
      }
      if (filters.period_from !== undefined) query.where('r.period_end', '>=', filters.period_from);
      if (filters.period_to !== undefined) query.where('r.period_start', '<', filters.period_to);
      if (filters.created_by !== undefined) query.where('r.created_by', filters.created_by);
      if (filters.awaitingDecisionBy !== undefined) {
        query
          .where('r.status', 'in_review')
          .whereRaw(`${segregationOfDutiesSql('r')} IS NULL`, segregationOfDutiesBindings(filters.awaitingDecisionBy));
      }
      if (after) query.whereRaw('(r.created_at, r.run_id) < (?::timestamptz, ?::uuid)', [after.created_at, after.id]);
      const rows: (RunRow & { cursor_created_at: string })[] = await query
        .orderBy([
          { column: 'r.created_at', order: 'desc' },
          { column: 'r.run_id', order: 'desc' },
        ])
        .limit(limit);
      return rows.map((row) => ({ ...toRunState(row), position: { created_at: row.cursor_created_at, id: row.run_id } }));
    },

    /** Why `actor` may not decide this run (segregationOfDutiesSql), or undefined when they may. */
    async segregationOfDutiesConflict(runId: string, actor: string): Promise<SegregationOfDutiesConflict | undefined> {
      const row = await db('evidence_runs as r')
        .where('r.run_id', runId)
        .first(db.raw(`${segregationOfDutiesSql('r')} AS conflict`, segregationOfDutiesBindings(actor)));
      return row?.conflict ?? undefined;
    },

    /** Moves the run from `from` to `to`; false when it was not in `from` (someone else moved it first). */
    async transition(runId: string, from: RunStatus, to: RunStatus, extra: Record<string, unknown> = {}): Promise<boolean> {
      const updated = await db('evidence_runs')
        .where({ run_id: runId, status: from })
        .update({ status: to, ...extra });
      return updated === 1;
    },

    async insertDecision(decision: Omit<Decision, 'decided_at'>): Promise<Decision> {
      const [row] = await db('evidence_run_decisions').insert(decision).returning('*');
      return toDecision(row);
    },

    async decisions(runId: string): Promise<Decision[]> {
      const rows = await db('evidence_run_decisions').where({ run_id: runId }).orderBy('decided_at');
      return rows.map(toDecision);
    },
  };
}

export type RunsStore = ReturnType<typeof runsStore>;
