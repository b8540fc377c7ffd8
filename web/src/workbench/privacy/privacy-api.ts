import { useMutation, useQuery } from '@tanstack/react-query';
import { api, type components } from '../../api/client';
import { problemText } from '../../api/problem';
import { useInvalidate } from '../../api/queries';
import { authHeader, type WorkbenchSession } from '../session';
import { useSession } from '../WorkbenchSession';

/**
 * What the privacy page reads and changes, through the generated API client, as the plain shapes its
 * sections show. A refusal becomes an Error whose message is the problem's words (a 409's reason included).
 */
const failure = (error: unknown, status: number) => new Error(problemText(error, status));

/** Every query key of the privacy page's reads, for the read and for what a change makes stale. */
export const privacyKeys = {
  all: () => ['privacy'] as const,
  claimOfNumber: (claimNumber: string) => [...privacyKeys.all(), 'claim-number', claimNumber] as const,
  retentionPolicy: () => [...privacyKeys.all(), 'retention-policy'] as const,
  claimantRecord: (claimId: string) => [...privacyKeys.all(), 'claimant', claimId] as const,
  export: (claimantId: string, exportId: string) => [...privacyKeys.all(), 'export', claimantId, exportId] as const,
  accessLog: (claimId: string) => [...privacyKeys.all(), 'access-log', claimId] as const,
};

/** The claim a claim number names (a claim number is not personal data: it survives erasure). */
export function useClaimOfNumber(claimNumber: string) {
  const session = useSession();
  return useQuery({
    queryKey: privacyKeys.claimOfNumber(claimNumber),
    queryFn: async () => {
      const found = await api.GET('/api/claims/claims', { params: { query: { q: claimNumber, limit: 10 } }, headers: authHeader(session) });
      if (found.error) throw failure(found.error, found.response.status);
      const claim = found.data.items.find((item) => item.claim_number === claimNumber);
      if (!claim) throw new Error(`No claim has the number ${claimNumber}.`);
      return claim.claim_id;
    },
  });
}

export type RetentionPolicy = components['schemas']['RetentionPolicy'];

async function fetchRetentionPolicy(session: WorkbenchSession) {
  const { data, error, response } = await api.GET('/api/claims/retention-policy', { headers: authHeader(session) });
  if (error) throw failure(error, response.status);
  return data;
}

export function useRetentionPolicy() {
  const session = useSession();
  return useQuery({ queryKey: privacyKeys.retentionPolicy(), queryFn: () => fetchRetentionPolicy(session) });
}

/** Publishes the next version on top of the one in force (If-Match: its version, so a version published meanwhile is a 409). */
export function usePublishRetentionPolicy(current: RetentionPolicy) {
  const session = useSession();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (body: components['schemas']['RetentionPolicyRequest']) => {
      const { data, error, response } = await api.PUT('/api/claims/retention-policy', {
        params: { header: { 'If-Match': `"${current.version}"` } },
        headers: authHeader(session),
        body,
      });
      if (error) throw failure(error, response.status);
      return data.version;
    },
    onSuccess: () => invalidate(privacyKeys.all()),
  });
}

export type LegalHold = components['schemas']['LegalHold'];

/** Places a hold on a claim (`place`: its reason) or releases one (`release`: its id, with the reason). */
export function useLegalHoldChange(claimId: string, recordKey: readonly unknown[]) {
  const session = useSession();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (change: { place: string } | { release: string; reason: string }) => {
      const { error, response } =
        'place' in change
          ? await api.POST('/api/claims/claims/{id}/legal-holds', {
              params: { path: { id: claimId } },
              headers: authHeader(session),
              body: { reason: change.place },
            })
          : await api.POST('/api/claims/claims/{id}/legal-holds/{hold_id}/release', {
              params: { path: { id: claimId, hold_id: change.release } },
              headers: authHeader(session),
              body: { reason: change.reason },
            });
      if (error) throw failure(error, response.status);
    },
    onSuccess: () => invalidate(recordKey),
  });
}

/** The standing holds of a claim. */
async function standingHolds(session: WorkbenchSession, claimId: string): Promise<LegalHold[]> {
  const { data, error, response } = await api.GET('/api/claims/claims/{id}/legal-holds', {
    params: { path: { id: claimId } },
    headers: authHeader(session),
  });
  if (error) throw failure(error, response.status);
  return data.items.filter((hold) => hold.released === null);
}

/** One claim of the claimant, as the privacy page shows it. */
export interface ClaimantClaim {
  claimId: string;
  claimNumber: string;
  stage: string;
  closingReason: string | null;
  closedAt: string | null;
  /** When its personal data may go (closing + the policy's days for its reason); null while open. */
  retainUntil: string | null;
  /** The standing holds. */
  holds: LegalHold[];
}

export interface ClaimantRecord {
  claimantId: string;
  erasedAt: string | null;
  claims: ClaimantClaim[];
}

/** Why the privacy page reads a claim file: recorded in each claim's access log. */
export const PRIVACY_PURPOSE = "Privacy officer: handling the claimant's data request";

async function claimFile(session: WorkbenchSession, claimId: string) {
  const { data, error, response } = await api.GET('/api/claims/claims/{id}', {
    params: { path: { id: claimId } },
    headers: { ...authHeader(session), 'Access-Purpose': PRIVACY_PURPOSE },
  });
  if (error) throw failure(error, response.status);
  return data;
}

type File = Awaited<ReturnType<typeof claimFile>>;

/** When the claim closed: its latest closing or withdrawal in the timeline (a reopened claim closes again later). */
function closedAt(file: File): string | null {
  if (file.claim.stage !== 'closed') return null;
  const closings = file.timeline.filter((entry) => entry.action === 'claim.closed' || entry.action === 'claim.withdrawn');
  return closings.at(-1)?.occurred_at ?? null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

async function claimantClaim(session: WorkbenchSession, file: File, policy: RetentionPolicy): Promise<ClaimantClaim> {
  const closed = closedAt(file);
  const reason = file.claim.closing?.reason ?? null;
  return {
    claimId: file.claim.claim_id,
    claimNumber: file.claim.claim_number,
    stage: file.claim.stage,
    closingReason: reason,
    closedAt: closed,
    retainUntil: closed && reason ? new Date(Date.parse(closed) + policy.retention_days[reason] * DAY_MS).toISOString() : null,
    holds: await standingHolds(session, file.claim.claim_id),
  };
}

/** The privacy page's view of the claimant found from a claim (`claimId`). */

/**
 * The claimant and their claims: the claim found, and the others the claims search finds by the claimant's
 * email (else phone) — the identifier claims are matched to a claimant by — that belong to the same claimant.
 */
export function useClaimantRecord(claimId: string) {
  const session = useSession();
  return useQuery({
    queryKey: privacyKeys.claimantRecord(claimId),
    enabled: claimId !== '',
    queryFn: async (): Promise<ClaimantRecord> => {
      const policy = await fetchRetentionPolicy(session);
      const found = await claimFile(session, claimId);
      const claimantId = found.claim.claimant_id;
      const erasedAt = found.claimant_erased_at;
      const contact = erasedAt ? null : (found.claim.claimant.email ?? found.claim.claimant.phone);
      const files = [found];
      if (contact) {
        const search = await api.GET('/api/claims/claims', { params: { query: { q: contact, limit: 50 } }, headers: authHeader(session) });
        if (search.error) throw failure(search.error, search.response.status);
        for (const item of search.data.items.filter((candidate) => candidate.claim_id !== claimId)) {
          const other = await claimFile(session, item.claim_id);
          if (other.claim.claimant_id === claimantId) files.push(other);
        }
      }
      return { claimantId, erasedAt, claims: await Promise.all(files.map((file) => claimantClaim(session, file, policy))) };
    },
  });
}

/** Erases the claimant; a refusal (409: an open claim, a hold, retention not passed) is an Error in the service's words. */
export function useErasure(claimantId: string, recordKey: readonly unknown[]) {
  const session = useSession();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (body: components['schemas']['ErasureRequest']) => {
      const { error, response } = await api.POST('/api/claims/claimants/{claimant_id}/erasure', {
        params: { path: { claimant_id: claimantId } },
        headers: authHeader(session),
        body,
      });
      if (error) throw failure(error, response.status);
    },
    onSuccess: () => invalidate(recordKey),
  });
}

export type ClaimantExport = components['schemas']['ClaimantExport'];

/** Asks for an export of everything held about the claimant; answers its id. */
export function useRequestExport(claimantId: string) {
  const session = useSession();
  return useMutation({
    mutationFn: async () => {
      const { data, error, response } = await api.POST('/api/claims/claimants/{claimant_id}/exports', {
        params: { path: { claimant_id: claimantId } },
        headers: authHeader(session),
      });
      if (error) throw failure(error, response.status);
      return data.export_id;
    },
  });
}

const EXPORT_POLL_MS = 1000;

/** The export, read again every second until it is ready or failed. */
export function useExport(claimantId: string, exportId: string) {
  const session = useSession();
  return useQuery({
    queryKey: privacyKeys.export(claimantId, exportId),
    queryFn: async () => {
      const { data, error, response } = await api.GET('/api/claims/claimants/{claimant_id}/exports/{export_id}', {
        params: { path: { claimant_id: claimantId, export_id: exportId } },
        headers: authHeader(session),
      });
      if (error) throw failure(error, response.status);
      return data;
    },
    refetchInterval: (query) => (query.state.data && ['ready', 'failed'].includes(query.state.data.status) ? false : EXPORT_POLL_MS),
  });
}

/** Who read the claim's personal data, when and why (the latest 25, newest first), read once `enabled`. */
export function useAccessLog(claimId: string, enabled: boolean) {
  const session = useSession();
  return useQuery({
    queryKey: privacyKeys.accessLog(claimId),
    enabled,
    queryFn: async () => {
      const { data, error, response } = await api.GET('/api/claims/claims/{id}/access-log', {
        params: { path: { id: claimId }, query: { limit: 25 } },
        headers: authHeader(session),
      });
      if (error) throw failure(error, response.status);
      return data.items;
    },
  });
}
