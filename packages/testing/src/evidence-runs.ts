import { callApi } from './api-call';

/** A compliance run as the tests build it through the API: a new control, a run over a period, notes as its evidence. */
export interface EvidenceRunFixture {
  control: { key: string; title: string; frequency?: string };
  period: { start: string; end: string };
  notes: { title: string; collected_at?: string }[];
  /** Submit the run for review once its evidence is in. */
  submit?: boolean;
}

/** Builds `fixture` at the evidence API under `baseUrl` (a gateway's or the service's own) as `authorization`; returns the run's id. */
export async function createEvidenceRun(baseUrl: string, authorization: string, fixture: EvidenceRunFixture): Promise<string> {
  const post = (path: string, body: unknown, expected: number) => callApi(baseUrl, 'POST', path, authorization, body, expected);
  const control = await post('/api/evidence/controls', fixture.control, 201);
  const run = await post(
    '/api/evidence/runs',
    { control_version_id: control.current_version.control_version_id, period_start: fixture.period.start, period_end: fixture.period.end },
    201,
  );
  const runId = run.run_id as string;
  for (const note of fixture.notes) await post(`/api/evidence/runs/${runId}/evidence`, { kind: 'note', ...note }, 201);
  if (fixture.submit) await post(`/api/evidence/runs/${runId}/submit`, undefined, 200);
  return runId;
}
