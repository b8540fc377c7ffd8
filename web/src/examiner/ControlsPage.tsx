import { useId, useState, type FormEvent } from 'react';
import type { components } from '../api/schema';
import { Link } from 'react-router-dom';
import { useControl, useControls, useSaveControl } from './evidence-api';
import { canWrite, type ExaminerSession } from '../workbench/session';

/** The controls by key, each opening onto its immutable versions. */
export function ControlsPage({ session }: { session: ExaminerSession }) {
  const id = useId();
  const controls = useControls(session);
  const [open, setOpen] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const items = controls.data?.pages.flatMap((page) => page.items) ?? [];
  const writer = canWrite(session);
  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Controls</h2>
      {controls.error && (
        <p role="alert" className="error">
          {controls.error.message}
        </p>
      )}
      {controls.isPending && <p role="status">Loading controls…</p>}
      {writer && !creating && items.length > 0 && (
        <button type="button" onClick={() => setCreating(true)}>
          Create a control
        </button>
      )}
      {controls.isSuccess && items.length === 0 && !creating && (
        <div className="empty">
          <p>No control yet. A control says what is checked and how often; runs collect its evidence for a period.</p>
          {writer ? (
            <button type="button" onClick={() => setCreating(true)}>
              Create a control
            </button>
          ) : (
            <p>Someone who prepares evidence (evidence:write) creates controls.</p>
          )}
        </div>
      )}
      {creating && <ControlForm session={session} onDone={() => setCreating(false)} />}
      <ul className="controls">
        {items.map((control) => (
          <li key={control.control_id}>
            <button
              type="button"
              className="link-button"
              aria-expanded={open === control.control_id}
              onClick={() => setOpen(open === control.control_id ? null : control.control_id)}
            >
              {control.key} — {control.title} (version {control.current_version.version}, {control.frequency ?? 'no frequency'})
            </button>{' '}
            <Link to={`/workbench/examiner/runs?control=${encodeURIComponent(control.key)}`}>Runs of {control.key}</Link>
            {open === control.control_id && <ControlVersions session={session} controlId={control.control_id} />}
          </li>
        ))}
      </ul>
      {controls.hasNextPage && (
        <button type="button" onClick={() => void controls.fetchNextPage()} disabled={controls.isFetchingNextPage}>
          More controls
        </button>
      )}
    </section>
  );
}

function ControlVersions({ session, controlId }: { session: ExaminerSession; controlId: string }) {
  const control = useControl(session, controlId);
  if (control.error)
    return (
      <p role="alert" className="error">
        {control.error.message}
      </p>
    );
  if (!control.data) return <p role="status">Loading versions…</p>;
  const current = control.data.versions[control.data.versions.length - 1];
  return (
    <>
      <table className="data-table">
        <caption>Versions of {control.data.key}</caption>
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Title</th>
            <th scope="col">Frequency</th>
            <th scope="col">Evidence required</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {control.data.versions.map((version) => (
            <tr key={version.control_version_id}>
              <td>{version.version}</td>
              <td>{version.title}</td>
              <td>{version.frequency ?? '—'}</td>
              <td>{version.evidence_requirements.join('; ') || '—'}</td>
              <td>
                {version.created_by}, {version.created_at.slice(0, 10)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {canWrite(session) && current && <ControlForm session={session} controlId={controlId} current={current} onDone={() => undefined} />}
    </>
  );
}

type Frequency = NonNullable<components['schemas']['CreateControlRequest']['frequency']>;
const FREQUENCIES: readonly Frequency[] = ['continuous', 'daily', 'weekly', 'monthly', 'quarterly', 'annual', 'ad_hoc'];

interface ControlDraft {
  key: string;
  title: string;
  frequency: Frequency | '';
  requirements: string;
}

/**
 * Creates a control, or (with `controlId`) its next version from the current one's fields: a version is
 * immutable, so a change is a new version.
 */
function ControlForm({
  session,
  controlId,
  current,
  onDone,
}: {
  session: ExaminerSession;
  controlId?: string;
  current?: { title: string; frequency: Frequency | null; evidence_requirements: string[] };
  onDone: () => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState<ControlDraft>({
    key: '',
    title: current?.title ?? '',
    frequency: current?.frequency ?? '',
    requirements: current?.evidence_requirements.join('\n') ?? '',
  });
  const set = (change: Partial<ControlDraft>) => setDraft((value) => ({ ...value, ...change }));
  const save = useSaveControl(
    session,
    controlId,
    {
      key: draft.key.trim(),
      title: draft.title.trim(),
      frequency: draft.frequency === '' ? null : draft.frequency,
      evidence_requirements: draft.requirements
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
    },
    onDone,
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const heading = controlId ? 'New version' : 'Create a control';
  return (
    <form className="create-form" aria-labelledby={`${id}-heading`} onSubmit={onSubmit}>
      <h3 id={`${id}-heading`}>{heading}</h3>
      {!controlId && (
        <div>
          <label htmlFor={`${id}-key`}>Key (unique, e.g. AC-2)</label>
          <input id={`${id}-key`} value={draft.key} required maxLength={50} onChange={(event) => set({ key: event.target.value })} />
        </div>
      )}
      <div>
        <label htmlFor={`${id}-title`}>Title</label>
        <input id={`${id}-title`} value={draft.title} required maxLength={300} onChange={(event) => set({ title: event.target.value })} />
      </div>
      <div>
        <label htmlFor={`${id}-frequency`}>Frequency</label>
        <select
          id={`${id}-frequency`}
          value={draft.frequency}
          onChange={(event) => set({ frequency: event.target.value as Frequency | '' })}
        >
          <option value="">None</option>
          {FREQUENCIES.map((frequency) => (
            <option key={frequency} value={frequency}>
              {frequency.replace('_', ' ')}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-requirements`}>Evidence required (one per line)</label>
        <textarea
          id={`${id}-requirements`}
          rows={3}
          value={draft.requirements}
          onChange={(event) => set({ requirements: event.target.value })}
        />
      </div>
      <button type="submit" disabled={save.isPending}>
        {controlId ? 'Save as a new version' : 'Create control'}
      </button>{' '}
      {!controlId && (
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      )}
      {save.error && (
        <p role="alert" className="error">
          {save.error.message}
        </p>
      )}
    </form>
  );
}
