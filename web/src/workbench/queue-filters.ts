import { CLAIM_STAGES, type ClaimStage } from '@platform/claims-domain';
import type { paths } from '../api/client';

export type ListClaimsQuery = NonNullable<paths['/api/claims/claims']['get']['parameters']['query']>;

export const QUEUES = ['fast_track', 'standard', 'complex', 'special_investigations'] as const;
export const DEADLINES = ['acknowledgement', 'first_contact', 'next_update'] as const;
export type Deadline = (typeof DEADLINES)[number];

/** The work queue's filters as the address bar holds them (so a filtered queue can be bookmarked and shared). */
export interface QueueFilters {
  stage: ClaimStage | '';
  queue: string;
  ownership: 'all' | 'mine' | 'unassigned';
  /** '' none; 'any' any deadline broken; else that deadline broken. */
  overdue: '' | 'any' | Deadline;
  escalationOpen: boolean;
  deliveryFailed: boolean;
  q: string;
}

export const NO_FILTERS: QueueFilters = {
  stage: '',
  queue: '',
  ownership: 'all',
  overdue: '',
  escalationOpen: false,
  deliveryFailed: false,
  q: '',
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
    q: search.get('q') ?? '',
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
  if (filters.q.trim()) search.set('q', filters.q.trim());
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
  if (filters.q.trim().length >= 3) query.q = filters.q.trim();
  if (cursor) query.cursor = cursor;
  return query;
}
