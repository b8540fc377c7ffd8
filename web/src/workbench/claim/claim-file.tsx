import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type components } from '../../api/client';
import { authHeader, type WorkbenchSession } from '../session';

export type ClaimFile = components['schemas']['GetClaimResponse'];
type Problem = { detail?: string; title?: string };

export const problemText = (problem: Problem | undefined, fallback: string) => problem?.detail ?? problem?.title ?? fallback;

/**
 * The claim file, read with the purpose the person gave for opening it (the `Access-Purpose` the claim's
 * access log records), or none.
 */
export function useClaimFile(claimId: string, session: WorkbenchSession, purpose: string | null = null) {
  return useQuery({
    queryKey: ['claim', claimId, purpose],
    queryFn: async () => {
      const { data, error } = await api.GET('/api/claims/claims/{id}', {
        params: { path: { id: claimId } },
        headers: { ...authHeader(session), ...(purpose ? { 'Access-Purpose': purpose } : {}) },
      });
      if (error) throw new Error(problemText(error, 'The claim could not be loaded'));
      return data;
    },
  });
}

/** A claim whose personal data is read only with a purpose: someone was injured, or triage raised a fraud indicator. */
export function isSensitive(file: Pick<ClaimFile, 'claim' | 'triage'>): boolean {
  return file.claim.injuries === true || (file.triage?.escalation_gates ?? []).some((gate) => gate.gate === 'fraud_indicator');
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
