import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { problemText } from './problem';
import type { ExaminerSession } from './session';

/** The controls by key, each opening onto its immutable versions. */
export function ControlsPage({ session }: { session: ExaminerSession }) {
  const id = useId();
  const controls = useInfiniteQuery({
    queryKey: ['controls'],
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) => {
      const { data, error, response } = await session.api.GET('/api/evidence/controls', {
        params: { query: { limit: 50, ...(pageParam ? { cursor: pageParam } : {}) } },
      });
      if (!data) throw new Error(problemText(error, response.status));
      return data;
    },
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
  const [open, setOpen] = useState<string | null>(null);
  const items = controls.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Controls</h2>
      {controls.error && (
        <p role="alert" className="error">
          {controls.error.message}
        </p>
      )}
      {controls.isPending && <p role="status">Loading controls…</p>}
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
  const control = useQuery({
    queryKey: ['control', controlId],
    queryFn: async () => {
      const { data, error, response } = await session.api.GET('/api/evidence/controls/{id}', { params: { path: { id: controlId } } });
      if (!data) throw new Error(problemText(error, response.status));
      return data;
    },
  });
  if (control.error)
    return (
      <p role="alert" className="error">
        {control.error.message}
      </p>
    );
  if (!control.data) return <p role="status">Loading versions…</p>;
  return (
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
  );
}
