import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useControlsForRuns, useCreateRun, useRunList, type RunFilters } from './evidence-api';
import { periodText, RUN_STATUSES, STATUS_LABELS, type RunStatus } from './runs';
import { canWrite, type ExaminerSession } from '../workbench/session';

const NO_FILTERS: RunFilters = { status: '', control: '', periodFrom: '', periodTo: '' };

/** Runs with their status and period, newest first, filtered and paged by the API's cursor. */
export function RunsPage({ session }: { session: ExaminerSession }) {
  const id = useId();
  const [params] = useSearchParams();
  const initial = { ...NO_FILTERS, control: params.get('control') ?? '' };
  const [draft, setDraft] = useState<RunFilters>(initial);
  const [filters, setFilters] = useState<RunFilters>(initial);
  const runs = useRunList(session, filters);
  const set = (change: Partial<RunFilters>) => setDraft((current) => ({ ...current, ...change }));
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFilters(draft);
  };
  const items = runs.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Runs</h2>
      {canWrite(session) && <CreateRun session={session} />}
      <form className="filters" onSubmit={onSubmit}>
        <div>
          <label htmlFor={`${id}-status`}>Status</label>
          <select id={`${id}-status`} value={draft.status} onChange={(event) => set({ status: event.target.value as RunStatus | '' })}>
            <option value="">Any</option>
            {RUN_STATUSES.map((status) => (
              <option key={status} value={status}>
                {STATUS_LABELS[status]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-control`}>Control (key or id)</label>
          <input id={`${id}-control`} value={draft.control} maxLength={300} onChange={(event) => set({ control: event.target.value })} />
        </div>
        <div>
          <label htmlFor={`${id}-from`}>Period from</label>
          <input id={`${id}-from`} type="date" value={draft.periodFrom} onChange={(event) => set({ periodFrom: event.target.value })} />
        </div>
        <div>
          <label htmlFor={`${id}-to`}>Period to (exclusive)</label>
          <input id={`${id}-to`} type="date" value={draft.periodTo} onChange={(event) => set({ periodTo: event.target.value })} />
        </div>
        <button type="submit">Filter runs</button>
      </form>
      {runs.error && (
        <p role="alert" className="error">
          {runs.error.message}
        </p>
      )}
      {runs.isPending ? (
        <p role="status">Loading runs…</p>
      ) : items.length === 0 ? (
        <p>No run matches.</p>
      ) : (
        <table className="data-table">
          <caption>Runs, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Control</th>
              <th scope="col">Period</th>
              <th scope="col">Status</th>
              <th scope="col">Opened by</th>
            </tr>
          </thead>
          <tbody>
            {items.map((run) => (
              <tr key={run.run_id}>
                <td>
                  <Link to={`/workbench/examiner/runs/${run.run_id}`}>
                    {run.control_key} v{run.control_version}
                  </Link>
                </td>
                <td>{periodText(run)}</td>
                <td>
                  <span className={`badge badge--${run.status}`}>{STATUS_LABELS[run.status]}</span>
                </td>
                <td>{run.created_by}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {runs.hasNextPage && (
        <button type="button" onClick={() => void runs.fetchNextPage()} disabled={runs.isFetchingNextPage}>
          More runs
        </button>
      )}
    </section>
  );
}

/** Opens a run of a control's current version for a period (both ends inclusive), then shows it. */
function CreateRun({ session }: { session: ExaminerSession }) {
  const id = useId();
  const navigate = useNavigate();
  const [versionId, setVersionId] = useState('');
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const controls = useControlsForRuns(session);
  const create = useCreateRun(session, { control_version_id: versionId, period_start: start, period_end: end }, (run) =>
    navigate(`/workbench/examiner/runs/${run.run_id}`),
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  if (controls.data && controls.data.length === 0)
    return (
      <p>
        A run collects a control’s evidence: <Link to="/workbench/examiner/controls">create a control</Link> first.
      </p>
    );
  return (
    <form className="create-form filters" aria-labelledby={`${id}-heading`} onSubmit={onSubmit}>
      <h3 id={`${id}-heading`}>Create a run</h3>
      <div>
        <label htmlFor={`${id}-control`}>Control</label>
        <select id={`${id}-control`} value={versionId} required onChange={(event) => setVersionId(event.target.value)}>
          <option value="">Choose a control</option>
          {(controls.data ?? []).map((control) => (
            <option key={control.control_id} value={control.current_version.control_version_id}>
              {control.key} — {control.title} (v{control.current_version.version})
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-start`}>Period start</label>
        <input id={`${id}-start`} type="date" value={start} required onChange={(event) => setStart(event.target.value)} />
      </div>
      <div>
        <label htmlFor={`${id}-end`}>Period end (inclusive)</label>
        <input id={`${id}-end`} type="date" value={end} required onChange={(event) => setEnd(event.target.value)} />
      </div>
      <button type="submit" disabled={create.isPending}>
        Create run
      </button>
      {(create.error ?? controls.error) && (
        <p role="alert" className="error">
          {(create.error ?? controls.error)!.message}
        </p>
      )}
    </form>
  );
}
