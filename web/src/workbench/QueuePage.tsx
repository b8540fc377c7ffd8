import { CLAIM_STAGES } from '@platform/claims-domain';
import { useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import type { components } from '../api/client';
import { DeadlineBadge } from './deadline';
import { useAdjusters, useClaimList } from './queue-api';
import { RequestFailed } from './RequestFailed';
import {
  ariaSort,
  DEADLINES,
  deleteView,
  filtersFromSearch,
  filtersToSearch,
  isSearch,
  listQuery,
  nextSort,
  QUEUES,
  savedViews,
  saveView,
  type QueueFilters,
  type SavedView,
  type SortColumn,
} from './queue-filters';
import { hasScope } from './session';
import { SEARCH_INPUT_ID, usePageTitle, useSession } from './WorkbenchSession';
import { problemDetail } from '../api/problem';
import { claimChanges } from './claim/claim-api';

export const humanise = (value: string) => value.replace(/_/g, ' ');

type ClaimSummary = components['schemas']['ListClaimsResponse']['items'][number];

const age = (createdAt: string, now = Date.now()) => {
  const hours = Math.max(0, Math.floor((now - Date.parse(createdAt)) / 3_600_000));
  return hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)} d`;
};
const money = (value: ClaimSummary['estimated_amount']) =>
  value ? new Intl.NumberFormat('en', { style: 'currency', currency: value.currency }).format(Number(value.amount)) : '—';

/** /workbench — the work queue: filters, sort and search kept in the address bar (a saved view is its URL), pages by cursor. */
export function QueuePage() {
  usePageTitle('Work queue');
  const location = useLocation();
  const [search, setSearch] = useSearchParams();
  const filters = filtersFromSearch(search);
  // The cursors of the pages before this one, to go back; the API pages forward only.
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const claims = useClaimList(listQuery(filters, cursor));
  const change = (next: QueueFilters) => {
    setCursors([]);
    setSelected(new Set());
    setSearch(filtersToSearch(next), { replace: true });
  };
  const items = claims.data?.items ?? [];
  const toggle = (claimId: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(claimId);
    else next.delete(claimId);
    setSelected(next);
  };
  const allSelected = items.length > 0 && items.every((claim) => selected.has(claim.claim_id));
  const searching = isSearch(filters);
  const SortHeader = ({ column, label }: { column: SortColumn; label: string }) => (
    <th scope="col" aria-sort={searching ? 'none' : ariaSort(filters.sort, column)}>
      <button
        type="button"
        className="link-button"
        disabled={searching}
        title={searching ? 'A search is ordered best match first' : undefined}
        onClick={() => change({ ...filters, sort: nextSort(filters.sort, column) })}
      >
        {label}
        {!searching && ariaSort(filters.sort, column) === 'ascending' ? ' ▲' : ''}
        {!searching && ariaSort(filters.sort, column) === 'descending' ? ' ▼' : ''}
      </button>
    </th>
  );
  return (
    <main className="queue-page">
      <h1>Work queue</h1>
      <QueueFilterForm
        filters={filters}
        onChange={change}
        autoFocus={Boolean((location.state as { focusSearch?: boolean } | null)?.focusSearch)}
      />
      <SavedViews filters={filters} />
      {claims.error && <RequestFailed what="The work queue" error={claims.error} onRetry={() => void claims.refetch()} />}
      <BulkAssignment
        selected={items.filter((claim) => selected.has(claim.claim_id))}
        onDone={(failed) => {
          setSelected(new Set(failed));
          void claims.refetch();
        }}
      />
      <table className="queue" aria-busy={claims.isFetching}>
        <caption className="visually-hidden">Claims matching the filters</caption>
        <thead>
          <tr>
            <th scope="col">
              <input
                type="checkbox"
                aria-label="Select every claim on this page"
                checked={allSelected}
                onChange={(event) => setSelected(new Set(event.target.checked ? items.map((claim) => claim.claim_id) : []))}
              />
            </th>
            <th scope="col">Claim</th>
            <th scope="col">Claimant</th>
            <SortHeader column="loss_type" label="Loss type" />
            <SortHeader column="estimated_amount" label="Amount" />
            <SortHeader column="created_at" label="Age" />
            <SortHeader column="severity" label="Severity" />
            <th scope="col">Stage</th>
            <th scope="col">Queue</th>
            <th scope="col">Assignee</th>
            <th scope="col">Next update due</th>
          </tr>
        </thead>
        <tbody>
          {items.map((claim) => (
            <tr key={claim.claim_id}>
              <td>
                <input
                  type="checkbox"
                  aria-label={`Select ${claim.claim_number}`}
                  checked={selected.has(claim.claim_id)}
                  onChange={(event) => toggle(claim.claim_id, event.target.checked)}
                />
              </td>
              <td>
                <Link to={`/workbench/claims/${claim.claim_id}`}>{claim.claim_number}</Link>
                {claim.escalation && <span className="badge badge--soon"> escalated</span>}
              </td>
              <td>{claim.claimant_name}</td>
              <td>{humanise(claim.loss_type)}</td>
              <td className="number">{money(claim.estimated_amount)}</td>
              <td className="number">
                <time dateTime={claim.created_at} title={new Date(claim.created_at).toLocaleString('en')}>
                  {age(claim.created_at)}
                </time>
              </td>
              <td className="number">{claim.severity ?? '—'}</td>
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

interface Outcome {
  claim_number: string;
  ok: boolean;
  text: string;
}

/**
 * Assign the selected claims to a named adjuster, or release them: one request per claim (each recorded
 * with who and why on its timeline), and an outcome per claim, so a claim that fails is named, not dropped.
 */
function BulkAssignment({ selected, onDone }: { selected: ClaimSummary[]; onDone: (failedIds: string[]) => void }) {
  const session = useSession();
  const adjusters = useAdjusters();
  const [assignee, setAssignee] = useState('');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);
  const apply = async (to: string | null) => {
    setBusy(true);
    const why = reason.trim() || (to === null ? 'Released from the work queue' : 'Assigned from the work queue');
    const results = await Promise.all(
      selected.map(async (claim) => {
        try {
          const { error } = await claimChanges(claim.claim_id, session).changeAssignee({ assignee: to, reason: why });
          if (!error) return { claim, ok: true, text: to === null ? 'released' : `assigned to ${to}` };
          return { claim, ok: false, text: `not changed: ${problemDetail(error, 'refused')}` };
        } catch (e) {
          return { claim, ok: false, text: `not changed: ${(e as Error).message}` };
        }
      }),
    );
    setOutcomes(results.map(({ claim, ok, text }) => ({ claim_number: claim.claim_number, ok, text })));
    setBusy(false);
    onDone(results.filter((result) => !result.ok).map((result) => result.claim.claim_id));
  };
  return (
    <section className="bulk-assignment" aria-labelledby="bulk-heading">
      <h2 id="bulk-heading">
        Assign or release <span className="muted">({selected.length} selected)</span>
      </h2>
      {!hasScope(session, 'claims:decide') && (
        <p className="notice">You can take claims yourself or release your own; assigning someone else needs a lead (claims:decide).</p>
      )}
      {adjusters.error && <RequestFailed what="The list of adjusters" error={adjusters.error} onRetry={() => void adjusters.refetch()} />}
      <div className="filter-row">
        <div>
          <label htmlFor="assign-to">Adjuster</label>
          <select id="assign-to" value={assignee} onChange={(event) => setAssignee(event.target.value)}>
            <option value="">Choose an adjuster</option>
            {session.sub && !(adjusters.data ?? []).includes(session.sub) && <option value={session.sub}>{session.sub} (me)</option>}
            {(adjusters.data ?? []).map((sub) => (
              <option key={sub} value={sub}>
                {sub === session.sub ? `${sub} (me)` : sub}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="assign-reason">Reason (kept on each claim)</label>
          <input id="assign-reason" value={reason} maxLength={500} onChange={(event) => setReason(event.target.value)} />
        </div>
        <button type="button" disabled={busy || selected.length === 0 || !assignee} onClick={() => void apply(assignee)}>
          Assign selected
        </button>
        <button type="button" className="secondary" disabled={busy || selected.length === 0} onClick={() => void apply(null)}>
          Release selected
        </button>
      </div>
      {outcomes.length > 0 && (
        <ul className="outcomes" aria-label="What happened to each claim" aria-live="polite">
          {outcomes.map((outcome) => (
            <li key={outcome.claim_number} className={outcome.ok ? 'outcome--ok' : 'outcome--failed'}>
              <strong>{outcome.claim_number}</strong>: {outcome.text}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Named views of the queue (each its URL: filters and sort in the query string), saved in this browser. */
function SavedViews({ filters }: { filters: QueueFilters }) {
  const [views, setViews] = useState<SavedView[]>(() => savedViews());
  const [name, setName] = useState('');
  return (
    <section className="saved-views" aria-labelledby="views-heading">
      <h2 id="views-heading">Saved views</h2>
      {views.length > 0 && (
        <ul>
          {views.map((view) => (
            <li key={view.name}>
              <Link to={`/workbench${view.search ? `?${view.search}` : ''}`}>{view.name}</Link>{' '}
              <button
                type="button"
                className="link-button"
                aria-label={`Delete view ${view.name}`}
                onClick={() => setViews(deleteView(view.name))}
              >
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!name.trim()) return;
          setViews(saveView(name, filters));
          setName('');
        }}
      >
        <label htmlFor="view-name">Save this view as</label>
        <input id="view-name" value={name} maxLength={60} onChange={(event) => setName(event.target.value)} />
        <button type="submit" className="secondary">
          Save view
        </button>
      </form>
    </section>
  );
}

/** The filters of the work queue; every change is applied at once (the search box on submit). */
export function QueueFilterForm({
  filters,
  onChange,
  autoFocus = false,
}: {
  filters: QueueFilters;
  onChange: (next: QueueFilters) => void;
  autoFocus?: boolean;
}) {
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
          id={SEARCH_INPUT_ID}
          type="search"
          value={q}
          autoFocus={autoFocus}
          aria-keyshortcuts="/"
          onChange={(event) => setQ(event.target.value)}
          placeholder="Claim or policy number, name, email, phone (press / to search)"
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
        <label className="checkbox">
          <input type="checkbox" checked={filters.activityOverdue} onChange={(event) => set({ activityOverdue: event.target.checked })} />{' '}
          Has overdue activity
        </label>
      </div>
    </div>
  );
}
