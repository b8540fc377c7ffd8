import { computeAdequacy } from '@platform/claims-domain';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { deadlineState, SOON_MS } from './deadline';
import { pkceChallenge } from './oidc';
import { QueueFilterForm } from './QueuePage';
import { filtersFromSearch, filtersToSearch, listQuery, NO_FILTERS, type QueueFilters } from './queue-filters';
import {
  emptyDraft,
  fieldOfPointer,
  refusalOfProblem,
  refusals,
  StatusUpdateComposer,
  type ComposedClosing,
  type ComposedUpdate,
} from './StatusUpdateComposer';

const score = () => screen.getByTestId('adequacy-score').textContent;

describe('status update composer', () => {
  it('raises the adequacy score and shrinks what is missing while the adjuster types, with the service rules', async () => {
    const user = userEvent.setup();
    render(<StatusUpdateComposer initial={emptyDraft('triage', '', '')} onSend={() => {}} onClose={() => {}} />);
    // Nothing given on email: next update (3), a call to action or "nothing needed" (2), contact (2), language (1) all missing.
    expect(score()).toBe('0%');
    const missing = () =>
      within(screen.getByRole('list', { name: 'Missing from this update' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent);
    expect(missing()).toEqual([
      'Missing: what happened',
      'Missing: when the customer hears from us next',
      'Missing: what we need from the customer, with a call to action (label and link), or "nothing needed"',
      'Missing: who to contact (phone and email)',
      'Missing: the language of the message',
    ]);

    await user.type(screen.getByLabelText('What happened'), 'We got your photos.');
    expect(missing()).not.toContain('Missing: what happened');
    await user.selectOptions(screen.getByLabelText('Language'), 'en');
    expect(score()).toBe(`${Math.round(computeAdequacy({ channel: 'email', language: 'en' }, ['cta']).adequacy_score * 100)}%`);
    await user.type(screen.getByLabelText('Contact phone'), '+14155550111');
    expect(score()).toBe('13%'); // a contact counts only with both phone and email, as the service requires
    await user.type(screen.getByLabelText('Contact email'), 'sam@insurer.example');
    expect(score()).toBe('38%');
    // Asking something of the customer leaves the score as it was: the call to action counted from the start.
    await user.type(screen.getByLabelText('What we need from the customer'), 'The police report');
    expect(score()).toBe('38%');
    await user.type(screen.getByLabelText('Call to action label'), 'Send it');
    await user.type(screen.getByLabelText('Call to action link'), 'https://portal.example/x');
    expect(score()).toBe('63%');
    await user.type(screen.getByLabelText('Next update by'), '2099-01-15');
    expect(score()).toBe('100%');
    expect(screen.getByText('Nothing the customer needs is missing.')).toBeInTheDocument();
  });

  it('never lowers the meter as fields are filled, and once "nothing needed" is said it is the score the service records', async () => {
    const user = userEvent.setup();
    const onSend = vi.fn<(request: ComposedUpdate) => void>();
    render(<StatusUpdateComposer initial={emptyDraft('assigned', 'en', '')} onSend={onSend} onClose={() => {}} />);
    const percent = () => Number(score()!.replace('%', ''));
    const seen = [percent()];
    const fill = async (label: string, text: string) => {
      await user.type(screen.getByLabelText(label), text);
      seen.push(percent());
    };
    await fill('What happened', 'We got your photos.');
    await fill('What we need from the customer', 'The police report');
    await fill('Contact phone', '+14155550111');
    await fill('Contact email', 'sam@insurer.example');
    await fill('Call to action label', 'Send it');
    await fill('Next update by', '2099-01-15');
    await fill('Call to action link', 'https://portal.example/x');
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBe(100);

    await user.clear(screen.getByLabelText('Call to action label'));
    await user.clear(screen.getByLabelText('Call to action link'));
    expect(score()).toBe('75%');
    await user.click(screen.getByLabelText('Nothing needed from the customer now'));
    expect(screen.queryByLabelText('What we need from the customer')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send update' }));
    const sent = onSend.mock.calls[0][0];
    expect(sent.what_we_need_from_you).toBeNull();
    expect(score()).toBe(`${Math.round(computeAdequacy(sent).adequacy_score * 100)}%`);
    expect(score()).toBe('100%');
  });

  it('shows the message as the chosen channel carries it, and the portal link counts on the portal channel', async () => {
    const user = userEvent.setup();
    render(<StatusUpdateComposer initial={emptyDraft('triage', 'en', '')} onSend={() => {}} onClose={() => {}} />);
    await user.type(screen.getByLabelText('What happened'), 'We got your photos.');
    expect(
      within(screen.getByRole('region', { name: 'Preview on email' })).getByText(/Subject: An update on your claim/),
    ).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Channel'), 'portal');
    expect(screen.getByRole('region', { name: 'Preview on portal' })).toHaveTextContent('We got your photos.');
    expect(screen.getByText('Missing: the portal link')).toBeInTheDocument();
  });

  it('closes with a reason through the closing operation: the status update inside carries no closing field', async () => {
    const user = userEvent.setup();
    const onSend = vi.fn<(request: ComposedUpdate) => void>();
    const onClose = vi.fn<(closing: ComposedClosing) => void>();
    render(<StatusUpdateComposer initial={emptyDraft('settlement', 'en', '')} onSend={onSend} onClose={onClose} />);
    expect(screen.queryByLabelText('Closing reason')).not.toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Stage'), 'closed');
    await user.selectOptions(screen.getByLabelText('Closing reason'), 'denied');
    await user.type(screen.getByLabelText('Rationale (internal; required for a denial)'), 'Flood is excluded');
    await user.type(screen.getByLabelText('What happened'), 'We cannot pay your claim.');
    await user.type(screen.getByLabelText('What happens next'), 'You can ask for a review.');
    await user.type(screen.getByLabelText('Contact phone'), '+14155550111');
    await user.type(screen.getByLabelText('Contact email'), 'sam@insurer.example');
    await user.click(screen.getByRole('button', { name: 'Close the claim' }));
    expect(onSend).not.toHaveBeenCalled();
    expect(onClose).toHaveBeenCalledTimes(1);
    const [closing] = onClose.mock.calls[0];
    expect(closing).toEqual({
      reason: 'denied',
      rationale: 'Flood is excluded',
      status_update: expect.objectContaining({ stage: 'closed', what_happened: 'We cannot pay your claim.', cta: null }),
    });
    expect(Object.keys(closing.status_update).sort()).toEqual(
      [
        'channel',
        'contact',
        'cta',
        'expected_next_update_by',
        'language',
        'portal_url',
        'stage',
        'what_happened',
        'what_happens_next',
        'what_we_need_from_you',
      ].sort(),
    );
    expect(closing.status_update.contact).toEqual({ phone: '+14155550111', email: 'sam@insurer.example' });
  });

  it('sends any other stage as a plain status update, with no contact name and nothing about closing', async () => {
    const user = userEvent.setup();
    const onSend = vi.fn<(request: ComposedUpdate) => void>();
    const onClose = vi.fn<(closing: ComposedClosing) => void>();
    render(<StatusUpdateComposer initial={emptyDraft('estimate', 'en', '')} onSend={onSend} onClose={onClose} />);
    expect(screen.queryByLabelText('Contact name')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('What happened'), 'We have your estimate.');
    await user.type(screen.getByLabelText('What happens next'), 'We review it.');
    await user.type(screen.getByLabelText('Contact phone'), '+14155550111');
    await user.type(screen.getByLabelText('Contact email'), 'sam@insurer.example');
    await user.click(screen.getByRole('button', { name: 'Send update' }));
    expect(onClose).not.toHaveBeenCalled();
    const [update] = onSend.mock.calls[0];
    expect(update).not.toHaveProperty('closing_reason');
    expect(update.contact).toEqual({ phone: '+14155550111', email: 'sam@insurer.example' });
  });
});

describe('status update composer refusals', () => {
  it('starts from the claim: its language, the stage template, the portal link and the last contact', () => {
    render(
      <StatusUpdateComposer
        initial={emptyDraft('assigned', 'es', 'http://localhost:3000/portal/claims/x', {
          phone: '+14155550111',
          email: 'sam@insurer.example',
        })}
        onSend={() => {}}
        onClose={() => {}}
      />,
    );
    expect(screen.getByLabelText('Language')).toHaveValue('es');
    expect(screen.getByLabelText('What happens next')).toHaveValue(
      'Su tramitador se pondrá en contacto con usted para revisar su reclamación.',
    );
    expect(screen.getByLabelText('Portal link')).toHaveValue('http://localhost:3000/portal/claims/x');
    expect(screen.getByLabelText('Contact email')).toHaveValue('sam@insurer.example');
  });

  it('takes an http link on the origin of the portal link the platform handed out (its PUBLIC_BASE_URL)', () => {
    const draft = {
      ...emptyDraft('estimate', 'en', 'http://localhost:3000/portal/claims/x'),
      what_happened: 'x',
      cta_label: 'Upload',
      cta_url: 'http://localhost:3000/portal/claims/x#upload',
    };
    expect(refusals(draft, ['http://localhost:3000'])).toEqual({});
    expect(refusals(draft, ['http://127.0.0.1:3000']).cta_url).toMatch(/https/);
  });

  it('refuses before sending an http link that is not the platform’s own, naming the field; the own origin passes', async () => {
    const user = userEvent.setup();
    const onSend = vi.fn<(request: ComposedUpdate) => void>();
    render(<StatusUpdateComposer initial={emptyDraft('estimate', 'en', '')} onSend={onSend} onClose={() => {}} />);
    await user.type(screen.getByLabelText('What happened'), 'We have your estimate.');
    await user.type(screen.getByLabelText('Call to action label'), 'See it');
    await user.type(screen.getByLabelText('Call to action link'), 'http://elsewhere.example/x');
    await user.click(screen.getByRole('button', { name: 'Send update' }));
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Call to action link')).toHaveAccessibleDescription(/must start with https:\/\//);
    await user.clear(screen.getByLabelText('Call to action link'));
    await user.type(screen.getByLabelText('Call to action link'), `${window.location.origin}/portal/claims/x`);
    await user.click(screen.getByRole('button', { name: 'Send update' }));
    expect(onSend).toHaveBeenCalledTimes(1);
  });

  it('refuses what the API’s own schema refuses (precompiled), each in words at the field its path names', () => {
    const draft = {
      ...emptyDraft('estimate', 'en', 'https://claims.example/portal/claims/x'),
      what_happened: 'x'.repeat(5001),
      what_happens_next: ' ',
      expected_next_update_by: '2099-02-30',
      cta_label: 'Upload',
      contact_phone: '+1 415 555',
      contact_email: 'not-an-address',
    };
    expect(refusals(draft, ['https://claims.example'])).toEqual({
      what_happened: 'At most 5000 characters',
      what_happens_next: 'Say what happens next',
      expected_next_update_by: 'Enter a real date',
      cta_url: 'A call to action needs its link',
      contact_phone: 'Enter the phone in international form, e.g. +14155550123',
      contact_email: 'Enter an email address',
    });
    // closing is checked against the closing request's schema: it needs its reason
    expect(refusals({ ...emptyDraft('closed', 'en', ''), what_happened: 'Closed' }, []).closing_reason).toBe('Choose why the claim closes');
  });

  it('asks for the rationale of a denial before closing', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn<(closing: ComposedClosing) => void>();
    render(<StatusUpdateComposer initial={emptyDraft('settlement', 'en', '')} onSend={() => {}} onClose={onClose} />);
    await user.selectOptions(screen.getByLabelText('Stage'), 'closed');
    await user.selectOptions(screen.getByLabelText('Closing reason'), 'denied');
    await user.type(screen.getByLabelText('What happened'), 'We cannot pay your claim.');
    await user.click(screen.getByRole('button', { name: 'Close the claim' }));
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByTestId('composer-closing_rationale-error')).toHaveTextContent('A denial needs its rationale');
  });

  it('previews an SMS wholly in the message’s language, the promised date as the day promised', async () => {
    const user = userEvent.setup();
    render(<StatusUpdateComposer initial={emptyDraft('estimate', 'es', '')} onSend={() => {}} onClose={() => {}} />);
    await user.selectOptions(screen.getByLabelText('Channel'), 'sms');
    await user.type(screen.getByLabelText('What happened'), 'Tenemos su valoración.');
    await user.type(screen.getByLabelText('Next update by'), '2099-01-15');
    const preview = screen.getByRole('region', { name: 'Preview on sms' });
    expect(preview).toHaveTextContent('Próxima actualización antes del 15 de enero de 2099.');
    expect(preview).not.toHaveTextContent(/Next update|2099-01-15/);
  });

  it('puts a server refusal next to the field its pointer names', () => {
    expect(fieldOfPointer('/cta/url')).toBe('cta_url');
    expect(fieldOfPointer('/status_update/contact/email')).toBe('contact_email');
    expect(fieldOfPointer('/rationale')).toBe('closing_rationale');
    expect(fieldOfPointer('/unknown')).toBeNull();
    const refusal = refusalOfProblem(
      { detail: 'Request body: portal_url must be https', errors: [{ pointer: '/portal_url', message: 'must be an https link' }] },
      '',
    );
    render(<StatusUpdateComposer initial={emptyDraft('estimate', 'en', '')} onSend={() => {}} onClose={() => {}} error={refusal} />);
    expect(screen.getByLabelText('Portal link')).toHaveAccessibleDescription('must be an https link');
    expect(refusals(emptyDraft('estimate', 'en', 'ftp://x'), ['https://claims.example']).portal_url).toMatch(/https/);
  });
});

function FiltersHarness({ onQuery }: { onQuery: (query: ReturnType<typeof listQuery>) => void }) {
  const [filters, setFilters] = useState<QueueFilters>(NO_FILTERS);
  return (
    <QueueFilterForm
      filters={filters}
      onChange={(next) => {
        setFilters(next);
        onQuery(listQuery(next));
      }}
    />
  );
}

describe('work queue filters', () => {
  it('turn into the list operation’s query: mine, unassigned, overdue by deadline, escalations, failed deliveries, search', async () => {
    const user = userEvent.setup();
    const onQuery = vi.fn();
    render(<FiltersHarness onQuery={onQuery} />);
    await user.selectOptions(screen.getByLabelText('Stage'), 'triage');
    await user.selectOptions(screen.getByLabelText('Whose'), 'mine');
    expect(onQuery).toHaveBeenLastCalledWith({ limit: 25, stage: ['triage'], assignee: 'me' });
    await user.selectOptions(screen.getByLabelText('Whose'), 'unassigned');
    await user.selectOptions(screen.getByLabelText('Overdue'), 'first_contact');
    await user.click(screen.getByLabelText('Open escalations'));
    await user.click(screen.getByLabelText('Failed deliveries'));
    await user.click(screen.getByLabelText('Has overdue activity'));
    await user.type(screen.getByLabelText('Search claims'), 'Ana Ruis');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(onQuery).toHaveBeenLastCalledWith({
      limit: 25,
      stage: ['triage'],
      unassigned: true,
      overdue: true,
      deadline: 'first_contact',
      escalation: 'open',
      delivery_failed: true,
      activity_overdue: true,
      q: 'Ana Ruis',
    });
  });

  it('round-trip through the address bar, ignore unknown values, and leave searches under 3 characters out', () => {
    const filters: QueueFilters = {
      stage: 'inspection',
      queue: 'complex',
      ownership: 'unassigned',
      overdue: 'any',
      escalationOpen: true,
      deliveryFailed: true,
      activityOverdue: true,
      q: 'Ruiz',
      sort: '-severity',
    };
    expect(filtersFromSearch(filtersToSearch(filters))).toEqual(filters);
    expect(filtersFromSearch(new URLSearchParams('stage=nope&ownership=x&overdue=soon&queue=vip'))).toEqual(NO_FILTERS);
    expect(listQuery({ ...NO_FILTERS, overdue: 'any', q: 'An' })).toEqual({ limit: 25, overdue: true });
    expect(listQuery(NO_FILTERS, 'cursor-2')).toEqual({ limit: 25, cursor: 'cursor-2' });
  });
});

describe('deadline badges and PKCE', () => {
  it('turn amber within a day of the deadline and red after it', () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    expect(deadlineState('2026-11-25T12:00:00Z', now)).toBe('ok');
    expect(deadlineState(new Date(now + SOON_MS).toISOString(), now)).toBe('soon');
    expect(deadlineState('2026-11-23T11:59:59Z', now)).toBe('breached');
  });

  it('derives the S256 challenge of RFC 7636’s example verifier', async () => {
    await expect(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).resolves.toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });
});
