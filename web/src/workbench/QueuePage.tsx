import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { CLAIM_STAGES } from '@platform/claims-domain';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { api } from '../api/client';
import { DeadlineBadge } from './deadline';
import { DEADLINES, filtersFromSearch, filtersToSearch, listQuery, QUEUES, type QueueFilters } from './queue-filters';
import { authHeader } from './session';
import { usePageTitle, useSession } from './WorkbenchSession';

export const humanise = (value: string) => value.replace(/_/g, ' ');

/** /workbench — the work queue: filters and search kept in the address bar, pages by cursor. */
export function QueuePage() {
  usePageTitle('Work queue');
  const session = useSession();
  const [search, setSearch] = useSearchParams();
  const filters = filtersFromSearch(search);
  // The cursors of the pages before this one, to go back; the API pages forward only.
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const [dueFirst, setDueFirst] = useState(false);
  const claims = useQuery({
    queryKey: ['claims', listQuery(filters, cursor)],
    placeholderData: keepPreviousData,
    queryFn: async () => {
      const { data, error } = await api.GET('/api/claims/claims', {
        params: { query: listQuery(filters, cursor) },
        headers: authHeader(session),
      });
      if (error) throw new Error(error.detail ?? error.title ?? 'The claims could not be loaded');
      return data;
    },
  });
  const change = (next: QueueFilters) => {
    setCursors([]);
    setSearch(filtersToSearch(next), { replace: true });
  };
  const items = [...(claims.data?.items ?? [])];
  if (dueFirst) items.sort((a, b) => (a.next_update_due ?? '9999').localeCompare(b.next_update_due ?? '9999'));
  return (
    <main>
      <h1>Work queue</h1>
      <QueueFilterForm filters={filters} onChange={change} />
      {claims.error && (
        <p className="error" role="alert">
          {claims.error.message}
        </p>
      )}
      <table className="queue">
        <caption className="visually-hidden">Claims matching the filters</caption>
        <thead>
          <tr>
            <th scope="col">Claim</th>
            <th scope="col">Claimant</th>
            <th scope="col">Stage</th>
            <th scope="col">Queue</th>
            <th scope="col">Assignee</th>
            <th scope="col" aria-sort={dueFirst ? 'ascending' : 'none'}>
              <button type="button" className="link-button" onClick={() => setDueFirst(!dueFirst)}>
                Next update due {dueFirst ? '▲' : ''}
              </button>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((claim) => (
            <tr key={claim.claim_id}>
              <td>
                <Link to={`/workbench/claims/${claim.claim_id}`}>{claim.claim_number}</Link>
                {claim.escalation && <span className="badge badge--soon"> escalated</span>}
              </td>
              <td>{claim.claimant_name}</td>
              <td>{humanise(claim.stage)}</td>
              <td>{claim.queue ? humanise(claim.queue) : '—'}</td>
              <td>{claim.assignee ?? 'Unassigned'}</td>
              <td>
                <DeadlineBadge due={claim.next_update_due} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {claims.isPending && <p role="status">Loading…</p>}
      {claims.data && items.length === 0 && <p role="status">No claims match.</p>}
      <nav aria-label="Pages" className="pager">
        <button type="button" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
          Previous page
        </button>
        <button type="button" disabled={!claims.data?.next_cursor} onClick={() => setCursors([...cursors, claims.data!.next_cursor!])}>
          Next page
        </button>
      </nav>
    </main>
  );
}

/** The filters of the work queue; every change is applied at once (the search box on submit). */
export function QueueFilterForm({ filters, onChange }: { filters: QueueFilters; onChange: (next: QueueFilters) => void }) {
  const [q, setQ] = useState(filters.q);
  const set = (patch: Partial<QueueFilters>) => onChange({ ...filters, ...patch });
  return (
    <div className="queue-filters">
      <form
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          set({ q });
        }}
      >
        <label htmlFor="queue-search">Search claims</label>
        <input
          id="queue-search"
          type="search"
          value={q}
          onChange={(event) => setQ(event.target.value)}
          placeholder="Claim or policy number, name, email, phone"
        />
        <button type="submit">Search</button>
      </form>
      <div className="filter-row">
        <div>
          <label htmlFor="filter-stage">Stage</label>
          <select id="filter-stage" value={filters.stage} onChange={(event) => set({ stage: event.target.value as QueueFilters['stage'] })}>
            <option value="">Any stage</option>
            {CLAIM_STAGES.map((stage) => (
              <option key={stage} value={stage}>
                {humanise(stage)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="filter-queue">Queue</label>
          <select id="filter-queue" value={filters.queue} onChange={(event) => set({ queue: event.target.value })}>
            <option value="">Any queue</option>
            {QUEUES.map((queue) => (
              <option key={queue} value={queue}>
                {humanise(queue)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="filter-ownership">Whose</label>
          <select
            id="filter-ownership"
            value={filters.ownership}
            onChange={(event) => set({ ownership: event.target.value as QueueFilters['ownership'] })}
          >
            <option value="all">Everyone's</option>
            <option value="mine">My claims</option>
            <option value="unassigned">Unassigned</option>
          </select>
        </div>
        <div>
          <label htmlFor="filter-overdue">Overdue</label>
          <select
            id="filter-overdue"
            value={filters.overdue}
            onChange={(event) => set({ overdue: event.target.value as QueueFilters['overdue'] })}
          >
            <option value="">Not filtered</option>
            <option value="any">Any deadline broken</option>
            {DEADLINES.map((deadline) => (
              <option key={deadline} value={deadline}>
                {humanise(deadline)} broken
              </option>
            ))}
          </select>
        </div>
        <label className="checkbox">
          <input type="checkbox" checked={filters.escalationOpen} onChange={(event) => set({ escalationOpen: event.target.checked })} />{' '}
          Open escalations
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={filters.deliveryFailed} onChange={(event) => set({ deliveryFailed: event.target.checked })} />{' '}
          Failed deliveries
        </label>
      </div>
    </div>
  );
}
