import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { textWithToken } from '../api/download';
import { problemText } from '../api/problem';
import { forwardByCursor, useInvalidate } from '../api/queries';
import type { components } from '../api/schema';
import type { JsonBody } from '../api/client';
import type { ExaminerSession } from '../workbench/session';
import { checkInclusion, type InclusionVerdict } from './inclusion';
import type { RunStatus } from './runs';

/**
 * What the examiner's desk reads (controls, runs, binders, the audit log), through the session's generated API
 * client. Every query key comes from `evidenceKeys`, for the read and for what a change makes stale.
 */
export const evidenceKeys = {
  controls: () => ['controls'] as const,
  controlsForRuns: () => [...evidenceKeys.controls(), 'for-runs'] as const,
  control: (controlId: string) => ['control', controlId] as const,
  runList: (filters: RunFilters) => ['runs', 'list', filters] as const,
  runsInReview: () => ['runs', 'in_review'] as const,
  runsAwaitingMe: () => ['runs', 'awaiting-me'] as const,
  run: (runId: string) => ['run', runId] as const,
  binders: (runId: string) => ['binders', runId] as const,
  auditCheckpoint: () => ['audit-checkpoint'] as const,
  auditRecords: (filters: RecordFilters) => ['audit-records', filters] as const,
  auditInclusion: (seq: number) => ['audit-inclusion', seq] as const,
  verifierKeys: () => ['verifier-keys'] as const,
};

type AuditRecord = components['schemas']['ListAuditRecordsResponse']['items'][number];

/** An answer's data, or an Error in the problem's words. */
function answer<T>({ data, error, response }: { data?: T; error?: unknown; response: Response }): T {
  if (data === undefined) throw new Error(problemText(error, response.status));
  return data;
}

/** A change's success, or an Error in the problem's words (for answers the page does not read). */
function accepted({ error, response }: { error?: unknown; response: Response }): void {
  if (!response.ok) throw new Error(problemText(error, response.status));
}

export function useControls(session: ExaminerSession) {
  return useInfiniteQuery({
    queryKey: evidenceKeys.controls(),
    ...forwardByCursor,
    queryFn: async ({ pageParam }) =>
      answer(
        await session.api.GET('/api/evidence/controls', { params: { query: { limit: 50, ...(pageParam ? { cursor: pageParam } : {}) } } }),
      ),
  });
}

/** The controls a run can be created for (first 100). */
export function useControlsForRuns(session: ExaminerSession) {
  return useQuery({
    queryKey: evidenceKeys.controlsForRuns(),
    queryFn: async () => answer(await session.api.GET('/api/evidence/controls', { params: { query: { limit: 100 } } })).items,
  });
}

export function useControl(session: ExaminerSession, controlId: string) {
  return useQuery({
    queryKey: evidenceKeys.control(controlId),
    queryFn: async () => answer(await session.api.GET('/api/evidence/controls/{id}', { params: { path: { id: controlId } } })),
  });
}

export interface RunFilters {
  status: RunStatus | '';
  control: string;
  periodFrom: string;
  periodTo: string;
}

/** The runs the filters keep, 25 a page. */
export function useRunList(session: ExaminerSession, filters: RunFilters) {
  return useInfiniteQuery({
    queryKey: evidenceKeys.runList(filters),
    ...forwardByCursor,
    queryFn: async ({ pageParam }) => {
      const query = {
        limit: 25,
        ...(pageParam ? { cursor: pageParam } : {}),
        ...(filters.status ? { status: [filters.status] } : {}),
        ...(filters.control.trim() ? { control: filters.control.trim() } : {}),
        ...(filters.periodFrom ? { period_from: filters.periodFrom } : {}),
        ...(filters.periodTo ? { period_to: filters.periodTo } : {}),
      };
      return answer(await session.api.GET('/api/evidence/runs', { params: { query } }));
    },
  });
}

/** Every run in review; with `awaitingMe`, those the examiner may decide (read only when `enabled`). */
export function useRunsInReview(session: ExaminerSession, awaitingMe: boolean, enabled = true) {
  return useQuery({
    queryKey: awaitingMe ? evidenceKeys.runsAwaitingMe() : evidenceKeys.runsInReview(),
    enabled,
    queryFn: async () =>
      answer(
        await session.api.GET('/api/evidence/runs', {
          params: { query: { status: ['in_review'], ...(awaitingMe ? { awaiting: 'me' as const } : {}), limit: 100 } },
        }),
      ).items,
  });
}

export function useRun(session: ExaminerSession, runId: string) {
  return useQuery({
    queryKey: evidenceKeys.run(runId),
    queryFn: async () => answer(await session.api.GET('/api/evidence/runs/{id}', { params: { path: { id: runId } } })),
  });
}

export function useBinders(session: ExaminerSession, runId: string) {
  return useQuery({
    queryKey: evidenceKeys.binders(runId),
    queryFn: async () => answer(await session.api.GET('/api/evidence/binders', { params: { query: { run_id: runId, limit: 50 } } })).items,
  });
}

/** The audit log's latest signed checkpoint note; null while the log has none. */
export function useAuditCheckpoint(session: ExaminerSession) {
  return useQuery({
    queryKey: evidenceKeys.auditCheckpoint(),
    queryFn: async () => {
      const { data, error, response } = await session.api.GET('/api/evidence/audit/checkpoint', { parseAs: 'text' });
      if (response.status === 404) return null;
      if (data === undefined) throw new Error(problemText(error, response.status));
      return data;
    },
  });
}

export interface RecordFilters {
  action: string;
  entityId: string;
  entityType: string;
  actor: string;
  from: string;
  before: string;
}

/** The filters as the records endpoint takes them; a local date-time input is sent as the instant it names. */
export function recordsQuery(filters: RecordFilters) {
  const text = (value: string) => (value.trim() ? value.trim() : undefined);
  const instant = (value: string) => (value ? new Date(value).toISOString() : undefined);
  const query = {
    action: text(filters.action),
    entity_id: text(filters.entityId),
    entity_type: text(filters.entityType),
    actor: text(filters.actor),
    recorded_from: instant(filters.from),
    recorded_before: instant(filters.before),
  };
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined)) as Partial<typeof query>;
}

/** The audit records the filters keep, 50 a page, in log order. */
export function useAuditRecords(session: ExaminerSession, filters: RecordFilters) {
  return useInfiniteQuery({
    queryKey: evidenceKeys.auditRecords(filters),
    initialPageParam: undefined as number | undefined,
    queryFn: async ({ pageParam }) =>
      answer(
        await session.api.GET('/api/evidence/audit/records', {
          params: { query: { ...recordsQuery(filters), limit: 50, ...(pageParam ? { after_seq: pageParam } : {}) } },
        }),
      ),
    getNextPageParam: (page) => (page.next_cursor ? Number(page.next_cursor) : undefined),
  });
}

/** Whether the record is in the log the latest checkpoint signs (null: the checkpoint is older than the record). */
export function useRecordInclusion(session: ExaminerSession, record: AuditRecord) {
  return useQuery({
    queryKey: evidenceKeys.auditInclusion(record.seq),
    queryFn: async (): Promise<{ verdict: InclusionVerdict; size: number } | null> => {
      const note = await session.api.GET('/api/evidence/audit/checkpoint', { parseAs: 'text' });
      if (note.data === undefined) throw new Error(problemText(note.error, note.response.status));
      const size = Number(note.data.split('\n')[1]);
      if (!(size >= record.seq)) return null;
      const proof = await session.api.GET('/api/evidence/audit/proofs/inclusion', {
        params: { query: { index: record.seq - 1, tree_size: size } },
      });
      if (!proof.data) throw new Error(problemText(proof.error, proof.response.status));
      return { verdict: await checkInclusion(record, note.data, proof.data), size };
    },
  });
}

export interface VerifierKeys {
  service: string;
  witnesses: string[];
}

export function useVerifierKeys(session: ExaminerSession) {
  return useQuery({
    queryKey: evidenceKeys.verifierKeys(),
    staleTime: Infinity,
    queryFn: async (): Promise<VerifierKeys> => {
      const fetched = await textWithToken('/api/evidence/audit/verifier-keys', session.token);
      if (!fetched.ok) throw new Error(problemText(fetched.problem, fetched.status));
      return JSON.parse(fetched.value) as VerifierKeys;
    },
  });
}

// Changes: each sends what the page holds when it is run, and marks stale what it changed.

export type NewRun = components['schemas']['CreateRunRequest'];

export function useCreateRun(session: ExaminerSession, run: NewRun, onCreated: (run: components['schemas']['CreateRunResponse']) => void) {
  return useMutation({
    mutationFn: async () => answer(await session.api.POST('/api/evidence/runs', { body: run })),
    onSuccess: onCreated,
  });
}

export function useVerifyAuditLog(session: ExaminerSession) {
  return useMutation({ mutationFn: async () => answer(await session.api.GET('/api/evidence/audit/verify')) });
}

export type ControlFields = components['schemas']['CreateControlRequest'];

/** A new control (no `controlId`), or a new version of one. */
export function useSaveControl(session: ExaminerSession, controlId: string | undefined, draft: ControlFields, onSaved: () => void) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async () => {
      const { key: _key, ...version } = draft;
      accepted(
        controlId
          ? await session.api.POST('/api/evidence/controls/{id}/versions', { params: { path: { id: controlId } }, body: version })
          : await session.api.POST('/api/evidence/controls', { body: draft }),
      );
    },
    onSuccess: async () => {
      await invalidate(evidenceKeys.controls());
      if (controlId) await invalidate(evidenceKeys.control(controlId));
      onSaved();
    },
  });
}

export function useSubmitRun(session: ExaminerSession, runId: string, onSubmitted: () => void) {
  return useMutation({
    mutationFn: async () => accepted(await session.api.POST('/api/evidence/runs/{id}/submit', { params: { path: { id: runId } } })),
    onSuccess: onSubmitted,
  });
}

export function useDecideRun(
  session: ExaminerSession,
  runId: string,
  decision: components['schemas']['DecideRunRequest'],
  onDecided: () => void,
) {
  return useMutation({
    mutationFn: async () =>
      accepted(await session.api.POST('/api/evidence/runs/{id}/decision', { params: { path: { id: runId } }, body: decision })),
    onSuccess: onDecided,
  });
}

export function useBuildBinder(session: ExaminerSession, runId: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async () => accepted(await session.api.POST('/api/evidence/binders/run/{id}', { params: { path: { id: runId } } })),
    onSuccess: () => invalidate(evidenceKeys.binders(runId)),
  });
}

/** Evidence given as a reference or a hash (a file goes through the uploader): the answer as the client gives it. */
export const attachEvidence = (session: ExaminerSession, runId: string, body: JsonBody<'/api/evidence/runs/{id}/evidence', 'post'>) =>
  session.api.POST('/api/evidence/runs/{id}/evidence', { params: { path: { id: runId } }, body });
