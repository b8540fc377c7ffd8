import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { CLAIM_STAGES } from '@platform/claims-domain';
import { api } from '../api/client';
import { problemDetail } from '../api/problem';
import { forwardByCursor } from '../api/queries';
import { claimKeys } from './claim/claim-api';
import { DEADLINES, type ListClaimsQuery } from './queue-filters';
import { authHeader, type WorkbenchSession } from './session';
import { useSession } from './WorkbenchSession';

/**
 * What the workbench's cross-claim pages read (the queue, the overview, payment approvals), through the generated
 * API client; every query key from `queueKeys`, for the read and for what a change makes stale.
 */
export const queueKeys = {
  claims: (query: ListClaimsQuery) => ['claims', query] as const,
  adjusters: () => ['adjusters'] as const,
  overview: () => ['overview'] as const,
  approvals: () => ['approvals'] as const,
};

/** A page of the claims list for the query (the previous page shown while the next one loads). */
export function useClaimList(query: ListClaimsQuery) {
  const session = useSession();
  return useQuery({
    queryKey: queueKeys.claims(query),
    placeholderData: keepPreviousData,
    retry: false,
    queryFn: async () => {
      const { data, error } = await api.GET('/api/claims/claims', { params: { query }, headers: authHeader(session) });
      if (error) throw new Error(problemDetail(error, 'the service did not answer'));
      return data;
    },
  });
}

/** The people a claim can be assigned to (GET /api/claims/adjusters), first page: the directory is people, not claims. */
export function useAdjusters() {
  const session = useSession();
  return useQuery({
    queryKey: queueKeys.adjusters(),
    retry: false,
    queryFn: async () => {
      const { data, error } = await api.GET('/api/claims/adjusters', { params: { query: { limit: 500 } }, headers: authHeader(session) });
      if (error) throw new Error(problemDetail(error, 'the service did not answer'));
      return data.items.map((item) => item.sub);
    },
  });
}

/** The API has no count operation: each count is of one list page of up to COUNT_CAP claims (shown as "100+"). */
export const COUNT_CAP = 100;

async function countClaims(session: WorkbenchSession, query: ListClaimsQuery): Promise<number> {
  const { data, error } = await api.GET('/api/claims/claims', {
    params: { query: { ...query, limit: COUNT_CAP } },
    headers: authHeader(session),
  });
  if (error) throw new Error(problemDetail(error, 'The claims could not be counted'));
  return data.items.length;
}

/** Open claims by stage, claims past each deadline, escalations waiting. */
export function useOverview() {
  const session = useSession();
  return useQuery({
    queryKey: queueKeys.overview(),
    queryFn: async () => {
      const openStages = CLAIM_STAGES.filter((stage) => stage !== 'closed');
      const [byStage, byDeadline, escalations] = await Promise.all([
        Promise.all(openStages.map(async (stage) => ({ stage, count: await countClaims(session, { stage: [stage] }) }))),
        Promise.all(DEADLINES.map(async (deadline) => ({ deadline, count: await countClaims(session, { overdue: true, deadline }) }))),
        countClaims(session, { escalation: 'open' }),
      ]);
      return { byStage, byDeadline, escalations };
    },
  });
}

/** Payments awaiting approval across claims, oldest first, a page at a time. */
export function useApprovalQueue() {
  const session = useSession();
  return useInfiniteQuery({
    queryKey: queueKeys.approvals(),
    ...forwardByCursor,
    queryFn: async ({ pageParam }) => {
      const { data, error } = await api.GET('/api/claims/payments/awaiting-approval', {
        params: { query: pageParam ? { cursor: pageParam } : {} },
        headers: authHeader(session),
      });
      if (error) throw new Error(problemDetail(error, 'The approval queue could not be loaded'));
      return data;
    },
  });
}

export type DiaryDue = 'overdue' | 'today' | 'week';

/** One list of the person's own diary, a page at a time. */
export function useMyActivities(due: DiaryDue) {
  const session = useSession();
  return useInfiniteQuery({
    queryKey: claimKeys.myActivities(due),
    ...forwardByCursor,
    queryFn: async ({ pageParam }) => {
      const { data, error } = await api.GET('/api/claims/activities', {
        params: { query: { assignee: 'me', due, ...(pageParam ? { cursor: pageParam } : {}) } },
        headers: authHeader(session),
      });
      if (error) throw new Error(problemDetail(error, 'Your diary could not be loaded'));
      return data;
    },
  });
}
