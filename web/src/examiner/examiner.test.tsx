import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import createClient from 'openapi-fetch';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { paths } from '../api/schema';
import { ApprovalQueueTable } from './ApprovalQueue';
import { EvidenceForm, jsonEvidenceBody, type EvidenceDraft } from './EvidenceForm';
import type { RunSummary } from './runs';
import type { ExaminerSession } from '../workbench/session';

function onDesk(children: ReactNode) {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>{children}</MemoryRouter>
    </QueryClientProvider>,
  );
}

function run(overrides: Partial<RunSummary>): RunSummary {
  return {
    run_id: crypto.randomUUID(),
    control_version_id: crypto.randomUUID(),
    period_start: '2026-07-01',
    period_end: '2026-09-30',
    status: 'in_review',
    created_by: 'preparer',
    created_at: '2026-10-02T09:00:00Z',
    control_id: crypto.randomUUID(),
    control_key: 'AC-2',
    control_version: 1,
    submitted_by: 'preparer',
    submitted_at: '2026-10-05T16:00:00Z',
    ...overrides,
  };
}

describe('the approval queue', () => {
  it('lets the examiner decide the runs awaiting them and says why the others are someone else’s to decide', () => {
    const theirs = run({ control_key: 'AC-2' });
    const submittedByMe = run({ control_key: 'BK-1', submitted_by: 'examiner' });
    const openedByMe = run({ control_key: 'CH-3', created_by: 'examiner', submitted_by: 'colleague' });
    const myEvidence = run({ control_key: 'DR-4' });
    onDesk(<ApprovalQueueTable inReview={[theirs, submittedByMe, openedByMe, myEvidence]} decidable={[theirs]} me="examiner" />);

    expect(screen.getByRole('table', { name: /1 for you to decide/ })).toBeInTheDocument();
    const rowOf = (key: string) => screen.getByRole('cell', { name: `${key} v1` }).closest('tr')!;
    expect(within(rowOf('AC-2')).getByRole('link', { name: 'Review and decide AC-2' })).toHaveAttribute(
      'href',
      `/workbench/examiner/runs/${theirs.run_id}`,
    );
    expect(rowOf('AC-2')).not.toHaveTextContent('someone else must decide');
    expect(rowOf('BK-1')).toHaveTextContent('You submitted this, someone else must decide.');
    expect(rowOf('CH-3')).toHaveTextContent('You opened this run, someone else must decide.');
    expect(rowOf('DR-4')).toHaveTextContent('You added evidence to this run, someone else must decide.');
    for (const key of ['BK-1', 'CH-3', 'DR-4']) expect(within(rowOf(key)).queryByRole('link', { name: /decide/ })).toBeNull();
  });

  it('says so when nothing is in review', () => {
    onDesk(<ApprovalQueueTable inReview={[]} decidable={[]} me="examiner" />);
    expect(screen.getByText('No run is waiting for a decision.')).toBeInTheDocument();
  });
});

describe('the evidence body', () => {
  const draft = (overrides: Partial<EvidenceDraft>): EvidenceDraft => ({
    kind: 'note',
    title: '',
    description: '',
    collectedAt: '',
    source: '',
    supersedes: '',
    url: '',
    data: '',
    ...overrides,
  });

  it('sends only the fields filled in, a link with its address and a record as a JSON object', () => {
    expect(jsonEvidenceBody(draft({ title: ' Walkthrough ' }))).toEqual({ body: { kind: 'note', title: 'Walkthrough' } });
    expect(jsonEvidenceBody(draft({ kind: 'link', title: 'Ticket', url: 'https://tickets.example/1', source: 'jira' }))).toEqual({
      body: { kind: 'link', title: 'Ticket', url: 'https://tickets.example/1', source: 'jira' },
    });
    expect(jsonEvidenceBody(draft({ kind: 'record', title: 'Sample', data: '{"reviewed": 10}' }))).toEqual({
      body: { kind: 'record', title: 'Sample', data: { reviewed: 10 } },
    });
  });

  it('refuses a record that is not a JSON object', () => {
    expect(jsonEvidenceBody(draft({ kind: 'record', title: 'x', data: '[1, 2]' }))).toEqual({
      error: expect.stringContaining('JSON object'),
    });
    expect(jsonEvidenceBody(draft({ kind: 'record', title: 'x', data: '{oops' }))).toEqual({ error: 'The record must be valid JSON.' });
  });
});

describe('the evidence form', () => {
  afterEach(() => vi.unstubAllGlobals());

  function session(fetchImpl: typeof fetch): ExaminerSession {
    vi.stubGlobal('fetch', fetchImpl);
    return { token: 't', me: 'preparer', scopes: ['evidence:write'], api: createSessionApi() };
  }

  it('posts a link as JSON and reports it added', async () => {
    const user = userEvent.setup();
    const calls: Request[] = [];
    const onAdded = vi.fn();
    const desk = session(async (input) => {
      calls.push(input as Request);
      return new Response(JSON.stringify({}), { status: 201, headers: { 'Content-Type': 'application/json' } });
    });
    onDesk(<EvidenceForm session={desk} runId="r1" replaceable={[]} onAdded={onAdded} />);
    await user.selectOptions(screen.getByLabelText('Kind'), 'link');
    await user.type(screen.getByLabelText('Title'), 'Access review ticket');
    await user.type(screen.getByLabelText('Address (http or https)'), 'https://tickets.example/SEC-1');
    await user.click(screen.getByRole('button', { name: 'Add evidence' }));
    await screen.findByText('Evidence added.');
    expect(calls[0]!.url).toMatch(/\/api\/evidence\/runs\/r1\/evidence$/);
    expect(await calls[0]!.json()).toEqual({ kind: 'link', title: 'Access review ticket', url: 'https://tickets.example/SEC-1' });
    expect(onAdded).toHaveBeenCalledTimes(1);
  });

  it('shows the problem document’s detail when the service refuses', async () => {
    const user = userEvent.setup();
    const desk = session(
      async () =>
        new Response(JSON.stringify({ type: 'x', title: 'Conflict', status: 409, detail: 'The run is not open' }), {
          status: 409,
          headers: { 'Content-Type': 'application/problem+json' },
        }),
    );
    onDesk(<EvidenceForm session={desk} runId="r1" replaceable={[]} onAdded={vi.fn()} />);
    await user.type(screen.getByLabelText('Title'), 'Late note');
    await user.click(screen.getByRole('button', { name: 'Add evidence' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The run is not open');
  });

  it('offers the items it can correct', async () => {
    const user = userEvent.setup();
    onDesk(
      <EvidenceForm session={session(vi.fn())} runId="r1" replaceable={[{ evidence_id: 'e1', title: 'Q3 sign-off' }]} onAdded={vi.fn()} />,
    );
    await user.selectOptions(screen.getByLabelText('Corrects (optional)'), 'e1');
    expect(screen.getByLabelText('Corrects (optional)')).toHaveValue('e1');
  });
});

function createSessionApi(): ExaminerSession['api'] {
  // openapi-fetch reads globalThis.fetch at request time when no fetch is given, so the stub above applies.
  return createClient<paths>({ baseUrl: 'http://desk.test', headers: { Authorization: 'Bearer t' } });
}
