import type { Knex } from '@platform/db';
import { PERIODIC_FREQUENCIES, type Period, type PeriodicFrequency } from './control-periods';
import type { Control, ControlDefinition, ControlVersion, DueControl } from './controls-schemas';

interface VersionRow extends ControlDefinition {
  control_version_id: string;
  control_id: string;
  version: number;
  created_by: string;
  created_at: Date;
}

interface ControlRow {
  control_id: string;
  key: string;
  created_by: string;
  created_at: Date;
}

const DEFINITION_COLUMNS = ['title', 'description', 'owner', 'frequency', 'test_procedure', 'evidence_requirements'] as const;

function toVersion(row: VersionRow): ControlVersion {
  return {
    control_version_id: row.control_version_id,
    version: row.version,
    ...definitionOf(row),
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
  };
}

export function definitionOf(source: ControlDefinition): ControlDefinition {
  return {
    title: source.title,
    description: source.description ?? null,
    owner: source.owner ?? null,
    frequency: source.frequency ?? null,
    test_procedure: source.test_procedure ?? null,
    evidence_requirements: source.evidence_requirements ?? [],
  };
}

function toControl(control: ControlRow, current: VersionRow): Control {
  return {
    control_id: control.control_id,
    key: control.key,
    ...definitionOf(current),
    created_by: control.created_by,
    created_at: control.created_at.toISOString(),
    current_version: {
      control_version_id: current.control_version_id,
      version: current.version,
      created_at: current.created_at.toISOString(),
    },
  };
}

/** Each control joined with its highest version. */
function currentVersions(db: Knex) {
  return db('evidence_controls as c')
    .join('evidence_control_versions as v', 'v.control_id', 'c.control_id')
    .whereRaw('v.version = (SELECT max(version) FROM evidence_control_versions m WHERE m.control_id = c.control_id)')
    .select(
      'c.control_id',
      'c.key',
      'c.created_by',
      'c.created_at',
      'v.control_version_id',
      'v.version',
      ...DEFINITION_COLUMNS.map((column) => `v.${column}`),
      'v.created_by as version_created_by',
      'v.created_at as version_created_at',
    );
}

type JoinedRow = ControlRow & Omit<VersionRow, 'created_by' | 'created_at'> & { version_created_by: string; version_created_at: Date };

function fromJoined(row: JoinedRow): Control {
  return toControl(row, { ...row, created_by: row.version_created_by, created_at: row.version_created_at });
}

const lock = (db: Knex, controlId: string) =>
  db.raw("SELECT pg_advisory_xact_lock(hashtext('evidence_controls'), hashtext(?))", [controlId]);

export function controlsStore(db: Knex) {
  return {
    /** Inserts the control unless its key is taken (case-insensitively); false when it is. */
    async insertControl(control: { control_id: string; key: string; created_by: string }): Promise<boolean> {
      const inserted = await db('evidence_controls').insert(control).onConflict().ignore().returning('control_id');
      return inserted.length > 0;
    },

    async insertVersion(
      version: { control_version_id: string; control_id: string; version: number; created_by: string } & ControlDefinition,
    ): Promise<void> {
      await db('evidence_control_versions').insert({ ...version, evidence_requirements: JSON.stringify(version.evidence_requirements) });
    },

    async keyOwner(key: string): Promise<string | undefined> {
      const row = await db('evidence_controls').whereRaw('lower(key) = lower(?)', [key]).first('control_id');
      return row?.control_id;
    },

    /** Holds the control's lock until the transaction ends (see find). Opening a run takes it too, so "is it due?" and the run's insert are one step. */
    lock: (controlId: string) => lock(db, controlId),

    /**
     * The control with its current version; `lock` serialises concurrent new versions of one control
     * with an advisory lock until the transaction ends (a row lock would need UPDATE on evidence_controls,
     * which is append-only: the service's role may only read and insert there).
     */
    async find(controlId: string, options: { lock?: boolean } = {}): Promise<Control | undefined> {
      if (options.lock) await lock(db, controlId);
      const row = await currentVersions(db).where('c.control_id', controlId).first();
      return row ? fromJoined(row) : undefined;
    },

    async versions(controlId: string): Promise<ControlVersion[]> {
      const rows: VersionRow[] = await db('evidence_control_versions').where({ control_id: controlId }).orderBy('version');
      return rows.map(toVersion);
    },

    /** Ordered by key (unique), so the key of the last item is the keyset cursor. */
    async list(limit: number, afterKey?: string): Promise<Control[]> {
      const query = currentVersions(db).orderByRaw('lower(c.key)').limit(limit);
      if (afterKey !== undefined) query.whereRaw('lower(c.key) > lower(?)', [afterKey]);
      const rows: JoinedRow[] = await query;
      return rows.map(fromJoined);
    },

    /**
     * Controls whose current version has a periodic frequency and no run (of any version) overlapping
     * the current period of that frequency, by key; `controlId` asks about one control.
     */
    async due(
      periods: Record<PeriodicFrequency, Period>,
      options: { limit: number; afterKey?: string; controlId?: string },
    ): Promise<DueControl[]> {
      const values = PERIODIC_FREQUENCIES.map(() => '(?, ?::date, ?::date)').join(', ');
      const query = currentVersions(db)
        .joinRaw(
          `JOIN (VALUES ${values}) AS p (frequency, period_start, period_end) ON p.frequency = v.frequency`,
          PERIODIC_FREQUENCIES.flatMap((frequency) => [frequency, periods[frequency].period_start, periods[frequency].period_end]),
        )
        .whereNotExists(
          db('evidence_runs as r')
            .join('evidence_control_versions as rv', 'rv.control_version_id', 'r.control_version_id')
            .whereRaw('rv.control_id = c.control_id AND r.period_start <= p.period_end AND r.period_end >= p.period_start')
            .select(db.raw('1')),
        )
        .select(
          db.raw("to_char(p.period_start, 'YYYY-MM-DD') AS period_start"),
          db.raw("to_char(p.period_end, 'YYYY-MM-DD') AS period_end"),
        )
        .orderByRaw('lower(c.key)')
        .limit(options.limit);
      if (options.afterKey !== undefined) query.whereRaw('lower(c.key) > lower(?)', [options.afterKey]);
      if (options.controlId !== undefined) query.where('c.control_id', options.controlId);
      const rows: (JoinedRow & Period)[] = await query;
      return rows.map((row) => ({
        control_id: row.control_id,
        key: row.key,
        title: row.title,
        owner: row.owner ?? null,
        frequency: row.frequency as PeriodicFrequency,
        control_version_id: row.control_version_id,
        version: row.version,
        period_start: row.period_start,
        period_end: row.period_end,
      }));
    },

    /** A control version with its control, as runs and binders see it. */
    async findVersion(controlVersionId: string): Promise<(ControlVersion & { control_id: string; key: string }) | undefined> {
      const row = await db('evidence_control_versions as v')
        .join('evidence_controls as c', 'c.control_id', 'v.control_id')
        .where('v.control_version_id', controlVersionId)
        .first('v.*', 'c.key');
      return row ? { ...toVersion(row), control_id: row.control_id, key: row.key } : undefined;
    },
  };
}

export type ControlsStore = ReturnType<typeof controlsStore>;
