/** A compliance run as the tests build it through the API: a new control, a run over a period, notes as its evidence. */
export interface EvidenceRunFixture {
  control: { key: string; title: string; frequency?: string };
  period: { start: string; end: string };
  notes: { title: string; collected_at?: string }[];
  /** Submit the run for review once its evidence is in. */
  submit?: boolean;
}

/** POSTs `body` as JSON (none when undefined) and returns the parsed answer; any other status than `expected` throws with the body. */
async function post(baseUrl: string, authorization: string, path: string, body: unknown, expected: number): Promise<any> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: body === undefined ? { authorization } : { authorization, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== expected) throw new Error(`POST ${path} answered ${response.status}, expected ${expected}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Builds `fixture` at the evidence API under `baseUrl` (a gateway's or the service's own) as `authorization`; returns the run's id. */
export async function createEvidenceRun(baseUrl: string, authorization: string, fixture: EvidenceRunFixture): Promise<string> {
  const control = await post(baseUrl, authorization, '/api/evidence/controls', fixture.control, 201);
  const run = await post(
    baseUrl,
    authorization,
    '/api/evidence/runs',
    { control_version_id: control.current_version.control_version_id, period_start: fixture.period.start, period_end: fixture.period.end },
    201,
  );
  const runId = run.run_id as string;
  for (const note of fixture.notes)
    await post(baseUrl, authorization, `/api/evidence/runs/${runId}/evidence`, { kind: 'note', ...note }, 201);
  if (fixture.submit) await post(baseUrl, authorization, `/api/evidence/runs/${runId}/submit`, undefined, 200);
  return runId;
}
