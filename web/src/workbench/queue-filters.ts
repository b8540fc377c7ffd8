import { CLAIM_STAGES, type ClaimStage } from '@platform/claims-domain';
import type { paths } from '../api/client';

export type ListClaimsQuery = NonNullable<paths['/api/claims/claims']['get']['parameters']['query']>;

export const QUEUES = ['fast_track', 'standard', 'complex', 'special_investigations'] as const;
export const DEADLINES = ['acknowledgement', 'first_contact', 'next_update'] as const;
export type Deadline = (typeof DEADLINES)[number];

/** The columns the queue sorts by (the API's `sort`, `-` descending); '' is the API's default, newest first. */
export const SORT_COLUMNS = ['created_at', 'estimated_amount', 'severity', 'loss_type'] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];
export type QueueSort = NonNullable<ListClaimsQuery['sort']>;
const SORTS: readonly QueueSort[] = SORT_COLUMNS.flatMap((column) => [column, `-${column}` as const]);

/** The work queue's filters as the address bar holds them (so a filtered queue can be bookmarked and shared). */
export interface QueueFilters {
  stage: ClaimStage | '';
  queue: string;
  ownership: 'all' | 'mine' | 'unassigned';
  /** '' none; 'any' any deadline broken; else that deadline broken. */
  overdue: '' | 'any' | Deadline;
  escalationOpen: boolean;
  deliveryFailed: boolean;
  activityOverdue: boolean;
  q: string;
  /** '' newest first; a search is always best match first. */
  sort: QueueSort | '';
}

export const NO_FILTERS: QueueFilters = {
  stage: '',
  queue: '',
  ownership: 'all',
  overdue: '',
  escalationOpen: false,
  deliveryFailed: false,
  activityOverdue: false,
  q: '',
  sort: '',
};

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | '' =>
  (values as readonly string[]).includes(value ?? '') ? (value as T) : '';

export function filtersFromSearch(search: URLSearchParams): QueueFilters {
  const ownership = search.get('ownership');
  const overdue = search.get('overdue');
  return {
    stage: oneOf(CLAIM_STAGES, search.get('stage')),
    queue: oneOf(QUEUES, search.get('queue')),
    ownership: ownership === 'mine' || ownership === 'unassigned' ? ownership : 'all',
    overdue: overdue === 'any' ? 'any' : oneOf(DEADLINES, overdue),
    escalationOpen: search.get('escalation') === 'open',
    deliveryFailed: search.get('delivery_failed') === 'true',
    activityOverdue: search.get('activity_overdue') === 'true',
    q: search.get('q') ?? '',
    sort: oneOf(SORTS, search.get('sort')),
  };
}

export function filtersToSearch(filters: QueueFilters): URLSearchParams {
  const search = new URLSearchParams();
  if (filters.stage) search.set('stage', filters.stage);
  if (filters.queue) search.set('queue', filters.queue);
  if (filters.ownership !== 'all') search.set('ownership', filters.ownership);
  if (filters.overdue) search.set('overdue', filters.overdue);
  if (filters.escalationOpen) search.set('escalation', 'open');
  if (filters.deliveryFailed) search.set('delivery_failed', 'true');
  if (filters.activityOverdue) search.set('activity_overdue', 'true');
  if (filters.q.trim()) search.set('q', filters.q.trim());
  if (filters.sort && filters.sort !== '-created_at') search.set('sort', filters.sort);
  return search;
}

/** The list operation's query for these filters (search needs at least 3 characters, as the API says). */
export function listQuery(filters: QueueFilters, cursor?: string): ListClaimsQuery {
  const query: ListClaimsQuery = { limit: 25 };
  if (filters.stage) query.stage = [filters.stage];
  if (filters.queue) query.queue = filters.queue;
  if (filters.ownership === 'mine') query.assignee = 'me';
  if (filters.ownership === 'unassigned') query.unassigned = true;
  if (filters.overdue) {
    query.overdue = true;
    if (filters.overdue !== 'any') query.deadline = filters.overdue;
  }
  if (filters.escalationOpen) query.escalation = 'open';
  if (filters.deliveryFailed) query.delivery_failed = true;
  if (filters.activityOverdue) query.activity_overdue = true;
  if (isSearch(filters)) query.q = filters.q.trim();
  else if (filters.sort) query.sort = filters.sort;
  if (cursor) query.cursor = cursor;
  return query;
}

/** A search of at least 3 characters (as the API says) is ranked best match first, so it is not sorted by a column. */
export const isSearch = (filters: QueueFilters) => filters.q.trim().length >= 3;

/** The order after a click on a column's header: descending first, then ascending, then the default order. */
export function nextSort(current: QueueSort | '', column: SortColumn): QueueSort | '' {
  if (current === `-${column}`) return column;
  if (current === column) return '';
  return `-${column}`;
}

/** `aria-sort` of a column's header for the current order. */
export function ariaSort(current: QueueSort | '', column: SortColumn): 'ascending' | 'descending' | 'none' {
  const effective = current || '-created_at';
  return effective === column ? 'ascending' : effective === `-${column}` ? 'descending' : 'none';
}

/** A named view of the queue: its filters and sort as the address bar holds them. */
export interface SavedView {
  name: string;
  search: string;
}

const VIEWS_KEY = 'workbench-saved-views';

/**
 * The views this person saved in this browser (localStorage: no secret in them, and they should outlive the
 * tab). The view itself is its URL, so a link to it reproduces it anywhere; this list only names them.
 */
export function savedViews(storage: Storage = localStorage): SavedView[] {
  try {
    const views = JSON.parse(storage.getItem(VIEWS_KEY) ?? '[]') as unknown;
    return Array.isArray(views)
      ? views.filter((view): view is SavedView => typeof view?.name === 'string' && typeof view?.search === 'string')
      : [];
  } catch {
    return [];
  }
}

/** Saves (or replaces, by name) a view of these filters; answers the list now. */
export function saveView(name: string, filters: QueueFilters, storage: Storage = localStorage): SavedView[] {
  const view = { name: name.trim(), search: filtersToSearch(filters).toString() };
  const views = [...savedViews(storage).filter((other) => other.name !== view.name), view];
  storage.setItem(VIEWS_KEY, JSON.stringify(views));
  return views;
}

export function deleteView(name: string, storage: Storage = localStorage): SavedView[] {
  const views = savedViews(storage).filter((view) => view.name !== name);
  storage.setItem(VIEWS_KEY, JSON.stringify(views));
  return views;
}
