import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { api, type JsonBody } from '../../api/client';
import { problemDetail } from '../../api/problem';
import { forwardByCursor, useInvalidate } from '../../api/queries';
import { authHeader, type WorkbenchSession } from '../session';

/**
 * What the claim page and its sections read, through the generated API client. Every query key of a claim's
 * reads comes from `claimKeys`, for the read and for what a change makes stale; sections call these hooks only.
 */
export const claimKeys = {
  claim: (claimId: string) => ['claim', claimId] as const,
  sensitivity: (claimId: string) => [...claimKeys.claim(claimId), 'sensitivity'] as const,
  file: (claimId: string, purpose: string | null) => [...claimKeys.claim(claimId), 'file', purpose] as const,
  contacts: (claimId: string) => ['contacts', claimId] as const,
  notes: (claimId: string) => ['notes', claimId] as const,
  deliveries: (claimId: string) => ['deliveries', claimId] as const,
  financials: (claimId: string) => ['financials', claimId] as const,
  payments: (claimId: string) => ['payments', claimId] as const,
  /** Every diary list: the claim's and the person's own. */
  activities: () => ['activities'] as const,
  claimActivities: (claimId: string) => [...claimKeys.activities(), 'claim', claimId] as const,
  myActivities: (due: string) => [...claimKeys.activities(), 'mine', due] as const,
};

/** The headers of a read of the claim's personal data: the token and the purpose the person gave, if any. */
export function readHeaders(session: WorkbenchSession, purpose: string | null): Record<string, string> {
  return { ...authHeader(session), ...(purpose ? { 'Access-Purpose': purpose } : {}) };
}

/** A read's answer, or an Error in the problem's words (else `fallback`). */
function answer<T>({ data, error }: { data?: T; error?: { detail?: string; title?: string } }, fallback: string): T {
  if (error || data === undefined) throw new Error(problemDetail(error, fallback));
  return data;
}

const claimPath = (claimId: string, session: WorkbenchSession) => ({ params: { path: { id: claimId } }, headers: authHeader(session) });

/**
 * Whether reading the claim's personal data needs a purpose (a sensitive claim: an injury or a fraud indicator,
 * decided by the service). Flags only: nothing personal leaves the service before the person has said why.
 */
export function useClaimSensitivity(claimId: string, session: WorkbenchSession) {
  return useQuery({
    queryKey: claimKeys.sensitivity(claimId),
    queryFn: async () =>
      answer(await api.GET('/api/claims/claims/{id}/sensitivity', claimPath(claimId, session)), 'The claim could not be loaded'),
  });
}

/**
 * The claim file, read with the purpose the person gave for opening it (the `Access-Purpose` the claim's
 * access log records), or none; read only once `enabled` (the purpose asked first where one is required).
 */
export function useClaimFile(claimId: string, session: WorkbenchSession, purpose: string | null, enabled: boolean) {
  return useQuery({
    queryKey: claimKeys.file(claimId, purpose),
    enabled,
    queryFn: async () =>
      answer(
        await api.GET('/api/claims/claims/{id}', { params: { path: { id: claimId } }, headers: readHeaders(session, purpose) }),
        'The claim could not be loaded',
      ),
  });
}

type ClaimPath = '/api/claims/claims/{id}';

/**
 * The changes the claim's sections make, through the generated client with the person's token: each answers as
 * the client does (`{ data, error }`), for the section to word a refusal its own way.
 */
export function claimChanges(claimId: string, session: WorkbenchSession) {
  const on = claimPath(claimId, session);
  const headers = authHeader(session);
  return {
    addNote: (body: JsonBody<`${ClaimPath}/notes`, 'post'>) => api.POST('/api/claims/claims/{id}/notes', { ...on, body }),
    recordContact: (body: JsonBody<`${ClaimPath}/contacts`, 'post'>) => api.POST('/api/claims/claims/{id}/contacts', { ...on, body }),
    addActivity: (body: JsonBody<`${ClaimPath}/activities`, 'post'>) => api.POST('/api/claims/claims/{id}/activities', { ...on, body }),
    setReserve: (body: JsonBody<`${ClaimPath}/reserves`, 'post'>) => api.POST('/api/claims/claims/{id}/reserves', { ...on, body }),
    requestPayment: (body: JsonBody<`${ClaimPath}/payments`, 'post'>) => api.POST('/api/claims/claims/{id}/payments', { ...on, body }),
    runTriage: () => api.POST('/api/claims/claims/{id}/run-triage', on),
    postStatusUpdate: (body: JsonBody<`${ClaimPath}/status-updates`, 'post'>) =>
      api.POST('/api/claims/claims/{id}/status-updates', { ...on, body }),
    close: (body: JsonBody<`${ClaimPath}/closing`, 'post'>) => api.POST('/api/claims/claims/{id}/closing', { ...on, body }),
    /** With the claim's `version` as If-Match: a change on a stale read is refused (409). */
    changeAssignee: (body: JsonBody<`${ClaimPath}/assignee`, 'put'>, version?: number) =>
      api.PUT('/api/claims/claims/{id}/assignee', {
        params: { path: { id: claimId }, ...(version === undefined ? {} : { header: { 'If-Match': `"${version}"` } }) },
        headers,
        body,
      }),
    decideEscalation: (escalationId: string, body: JsonBody<`${ClaimPath}/escalations/{escalation_id}/decision`, 'post'>) =>
      api.POST('/api/claims/claims/{id}/escalations/{escalation_id}/decision', {
        params: { path: { id: claimId, escalation_id: escalationId } },
        headers,
        body,
      }),
    decidePayment: (paymentId: string, body: JsonBody<`${ClaimPath}/payments/{payment_id}/decision`, 'post'>) =>
      api.POST('/api/claims/claims/{id}/payments/{payment_id}/decision', {
        params: { path: { id: claimId, payment_id: paymentId } },
        headers,
        body,
      }),
    completeActivity: (activityId: string) =>
      api.POST('/api/claims/claims/{id}/activities/{activity_id}/complete', {
        params: { path: { id: claimId, activity_id: activityId } },
        headers,
      }),
    reassignActivity: (activityId: string, body: JsonBody<`${ClaimPath}/activities/{activity_id}/reassign`, 'post'>) =>
      api.POST('/api/claims/claims/{id}/activities/{activity_id}/reassign', {
        params: { path: { id: claimId, activity_id: activityId } },
        headers,
        body,
      }),
    /** The kit holds the claim's personal data: generated with the purpose given for the claim, if any. */
    generateKit: (purpose: string | null) =>
      api.POST('/api/claims/claims/{id}/generate-adjuster-kit', {
        params: { path: { id: claimId } },
        headers: readHeaders(session, purpose),
      }),
  };
}

/** A change to the claim; the claim file is read again once it succeeds. */
export function useClaimMutation<T>(claimId: string, run: (input: T) => Promise<void>) {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: run, onSuccess: () => invalidate(claimKeys.claim(claimId)) });
}

export function useClaimContacts(claimId: string, session: WorkbenchSession) {
  return useQuery({
    queryKey: claimKeys.contacts(claimId),
    queryFn: async () =>
      answer(await api.GET('/api/claims/claims/{id}/contacts', claimPath(claimId, session)), 'The contacts could not be loaded').items,
  });
}

/** The claim's internal notes, newest first, a page at a time. */
export function useClaimNotes(claimId: string, session: WorkbenchSession) {
  return useInfiniteQuery({
    queryKey: claimKeys.notes(claimId),
    ...forwardByCursor,
    queryFn: async ({ pageParam }) =>
      answer(
        await api.GET('/api/claims/claims/{id}/notes', {
          params: { path: { id: claimId }, query: pageParam ? { cursor: pageParam } : {} },
          headers: authHeader(session),
        }),
        'The notes could not be loaded',
      ),
  });
}

export function useClaimDeliveries(claimId: string, session: WorkbenchSession) {
  return useQuery({
    queryKey: claimKeys.deliveries(claimId),
    queryFn: async () =>
      answer(await api.GET('/api/claims/claims/{id}/deliveries', claimPath(claimId, session)), 'The deliveries could not be loaded').items,
  });
}

export function useClaimActivities(claimId: string, session: WorkbenchSession) {
  return useQuery({
    queryKey: claimKeys.claimActivities(claimId),
    queryFn: async () =>
      answer(await api.GET('/api/claims/claims/{id}/activities', claimPath(claimId, session)), 'The activities could not be loaded').items,
  });
}

/** The reserve position of each cost category of the claim (`what`: how a failure names it). */
export function useClaimFinancials(claimId: string, session: WorkbenchSession, what = 'The financials could not be loaded') {
  return useQuery({
    queryKey: claimKeys.financials(claimId),
    queryFn: async () => answer(await api.GET('/api/claims/claims/{id}/financials', claimPath(claimId, session)), what),
  });
}

export function useClaimPayments(claimId: string, session: WorkbenchSession) {
  return useQuery({
    queryKey: claimKeys.payments(claimId),
    queryFn: async () =>
      answer(await api.GET('/api/claims/claims/{id}/payments', claimPath(claimId, session)), 'The payments could not be loaded'),
  });
}
