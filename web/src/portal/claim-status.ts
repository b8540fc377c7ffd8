import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';

export const claimStatusKey = (claimId: string) => ['claimant-status', claimId] as const;

/** What the claimant may see of their claim (GET /api/claims/public/claims/{id}/status); null when the token does not open it. */
export function useClaimStatus(claimId: string, token: string | null) {
  return useQuery({
    // the token is part of the key: a new link's token asks again instead of reusing the old token's answer
    queryKey: [...claimStatusKey(claimId), token],
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
