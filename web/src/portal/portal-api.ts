import { useQuery } from '@tanstack/react-query';
import { api, type JsonBody } from '../api/client';
import { problemOf, type Problem } from '../api/problem';

/**
 * What the claimant's portal reads, through the generated API client, with the claimant's link token; every query
 * key from `portalKeys`, for the read and for what a change makes stale. Nothing here is the workbench's.
 */
export const portalKeys = {
  status: (claimId: string) => ['claimant-status', claimId] as const,
  // the token is part of the key: a new link's token asks again instead of reusing the old token's answer
  statusWith: (claimId: string, token: string | null) => [...portalKeys.status(claimId), token] as const,
  export: (claimId: string, exportId: string, token: string) => ['claimant-export', claimId, exportId, token] as const,
};

/** What the claimant may see of their claim (GET /api/claims/public/claims/{id}/status); null when the token does not open it. */
export function useClaimStatus(claimId: string, token: string | null) {
  return useQuery({
    queryKey: portalKeys.statusWith(claimId, token),
    enabled: token !== null,
    queryFn: async () => {
      const { data, response } = await api.GET('/api/claims/public/claims/{id}/status', {
        params: { path: { id: claimId }, query: { limit: 100 } },
        headers: { Authorization: `Bearer ${token}` },
      });
      if (data) return data;
      if (response.status === 401 || response.status === 404 || response.status === 400) return null;
      throw new Error(`The claim could not be loaded (${response.status})`);
    },
  });
}

export type ClaimantStatus = NonNullable<ReturnType<typeof useClaimStatus>['data']>;
export type StatusUpdate = NonNullable<ClaimantStatus['latest_update']>;

/**
 * A copy of the claimant's data being built, asked again every `pollMs` until it is ready or failed; a refusal
 * becomes an Error in the words `failure` gives it.
 */
export function useClaimantExport(claimId: string, exportId: string, token: string, pollMs: number, failure: (problem: Problem) => string) {
  return useQuery({
    queryKey: portalKeys.export(claimId, exportId, token),
    queryFn: async () => {
      const { data, error, response } = await api.GET('/api/claims/public/claims/{id}/exports/{export_id}', {
        params: { path: { id: claimId, export_id: exportId } },
        headers: { Authorization: `Bearer ${token}` },
      });
      if (!data) throw new Error(failure(problemOf(error, response.status)));
      return data;
    },
    refetchInterval: (query) => (query.state.data && ['ready', 'failed'].includes(query.state.data.status) ? false : pollMs),
  });
}

/** The claimant's changes, through the generated client: each answers as the client does (`{ data, error, response }`). */
export const portalChanges = {
  reportLoss: (body: JsonBody<'/api/claims/public/claims', 'post'>, idempotencyKey: string) =>
    api.POST('/api/claims/public/claims', { body, headers: { 'Idempotency-Key': idempotencyKey } }),
  askForNewLink: (body: JsonBody<'/api/claims/public/access-links', 'post'>) => api.POST('/api/claims/public/access-links', { body }),
  withdraw: (claimId: string, token: string) =>
    api.POST('/api/claims/public/claims/{id}/withdraw', {
      params: { path: { id: claimId } },
      headers: { Authorization: `Bearer ${token}` },
    }),
  requestExport: (claimId: string, token: string) =>
    api.POST('/api/claims/public/claims/{id}/exports', {
      params: { path: { id: claimId } },
      headers: { Authorization: `Bearer ${token}` },
    }),
  exportDownloadToken: (claimId: string, exportId: string, token: string) =>
    api.POST('/api/claims/public/claims/{id}/exports/{export_id}/download-token', {
      params: { path: { id: claimId, export_id: exportId } },
      headers: { Authorization: `Bearer ${token}` },
    }),
};
