import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type components } from '../../api/client';
import { authHeader, type WorkbenchSession } from '../session';

export type ClaimFile = components['schemas']['GetClaimResponse'];
type Problem = { detail?: string; title?: string };

export const problemText = (problem: Problem | undefined, fallback: string) => problem?.detail ?? problem?.title ?? fallback;

/** The headers of a read of the claim's personal data: the token and the purpose the person gave, if any. */
export function readHeaders(session: WorkbenchSession, purpose: string | null): Record<string, string> {
  return { ...authHeader(session), ...(purpose ? { 'Access-Purpose': purpose } : {}) };
}

/**
 * Whether reading the claim's personal data needs a purpose (a sensitive claim: an injury or a fraud indicator,
 * decided by the service). Flags only: nothing personal leaves the service before the person has said why.
 */
export function useClaimSensitivity(claimId: string, session: WorkbenchSession) {
  return useQuery({
    queryKey: ['claim', claimId, 'sensitivity'],
    queryFn: async () => {
      const { data, error } = await api.GET('/api/claims/claims/{id}/sensitivity', {
        params: { path: { id: claimId } },
        headers: authHeader(session),
      });
      if (error) throw new Error(problemText(error, 'The claim could not be loaded'));
      return data;
    },
  });
}

/**
 * The claim file, read with the purpose the person gave for opening it (the `Access-Purpose` the claim's
 * access log records), or none; read only once `enabled` (the purpose asked first where one is required).
 */
export function useClaimFile(claimId: string, session: WorkbenchSession, purpose: string | null, enabled: boolean) {
  return useQuery({
    queryKey: ['claim', claimId, 'file', purpose],
    enabled,
    queryFn: async () => {
      const { data, error } = await api.GET('/api/claims/claims/{id}', {
        params: { path: { id: claimId } },
        headers: readHeaders(session, purpose),
      });
      if (error) throw new Error(problemText(error, 'The claim could not be loaded'));
      return data;
    },
  });
}

/** A change to the claim; the claim file is read again once it succeeds. */
export function useClaimMutation<T>(claimId: string, run: (input: T) => Promise<void>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => queryClient.invalidateQueries({ queryKey: ['claim', claimId] }) });
}

/**
 * The link the platform already sent the claimant (intake's acknowledgement) and the latest contact: the API takes
 * the link back whatever its scheme, being on the platform's own PUBLIC_BASE_URL (CONTRACT §3), so a development
 * platform's http link is kept.
 */
export function composerStart(file: ClaimFile) {
  const portalUrl = file.status_updates.find((update) => update.portal_url)?.portal_url ?? '';
  const contact = [...file.status_updates].reverse().find((update) => update.contact)?.contact ?? null;
  return { portalUrl, contact };
}

export function ErrorAlert({ error }: { error: Error | null }) {
  return error ? (
    <p className="error" role="alert">
      {error.message}
    </p>
  ) : null;
}
