import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { LanguageProvider } from '../i18n/language';
import { LanguageSwitch } from '../i18n/LanguageSwitch';
import type { Language } from '../i18n/messages';
import { takeAccessToken } from './access-token';
import { DocumentChecklist } from './DocumentChecklist';
import { problemMessage } from '../api/problem';
import { StageTimeline } from './StageTimeline';
import { StatusUpdateView } from './StatusUpdateView';
import { translate } from '../i18n/messages';
import { WithdrawSection } from './WithdrawSection';

function inPortal(children: ReactNode, language: Language = 'en') {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <LanguageProvider initial={language}>{children}</LanguageProvider>
    </QueryClientProvider>,
  );
}

describe('the access token from the link', () => {
  it('is kept in sessionStorage and removed from the address bar, other fragment parts kept', () => {
    window.history.replaceState(null, '', '/portal/claims/c1?x=1#token=secret-token&upload');
    expect(takeAccessToken('c1')).toBe('secret-token');
    expect(window.location.hash).toBe('#upload=');
    expect(window.location.href).not.toContain('secret-token');
    expect(sessionStorage.getItem('claim-access:c1')).toBe('secret-token');
    window.history.replaceState(null, '', '/portal/claims/c1');
    expect(takeAccessToken('c1')).toBe('secret-token');
    expect(takeAccessToken('other-claim')).toBeNull();
  });
});

describe('StageTimeline', () => {
  it('marks the current step and the done ones, in the chosen language', () => {
    inPortal(
      <StageTimeline claim={{ stage: 'inspection', stages_passed: ['intake', 'triage', 'assigned'], closing_reason: null }} />,
      'es',
    );
    const current = screen.getByText('Inspección').closest('li')!;
    expect(current).toHaveAttribute('aria-current', 'step');
    expect(screen.getByText('Recibida').closest('li')).toHaveTextContent('(hecho)');
    expect(screen.queryByText('Esperando su respuesta')).toBeNull();
  });
});

describe('StatusUpdateView', () => {
  it("names the contact person from the claim's assignment, beside the update's phone and email", () => {
    inPortal(
      <StatusUpdateView
        contactName="Ann Adjuster"
        update={{
          claim_id: '6f1c0000-0000-4000-8000-000000000001',
          channel: 'portal',
          stage: 'inspection',
          what_happened: 'We looked at your photos.',
          what_happens_next: 'An inspector visits.',
          what_we_need_from_you: null,
          expected_next_update_by: null,
          cta: null,
          contact: { phone: '+14155550199', email: 'claims@example.com' },
          portal_url: null,
          language: 'en',
          adequacy_score: 1,
          adequacy_missing: [],
        }}
      />,
    );
    const contact = screen.getByRole('link', { name: '+1 415 555 0199' }).closest('dd')!;
    expect(screen.getByRole('link', { name: '+1 415 555 0199' })).toHaveAttribute('href', 'tel:+14155550199');
    expect(contact).toHaveTextContent('Ann Adjuster · +1 415 555 0199 · claims@example.com');
    expect(screen.getByRole('link', { name: 'claims@example.com' })).toHaveAttribute('href', 'mailto:claims@example.com');
  });
});

describe('DocumentChecklist', () => {
  it('names each document in plain words with received or missing', () => {
    inPortal(
      <DocumentChecklist
        documents={[
          { type: 'photos_of_damage', received: true },
          { type: 'police_report', received: false },
        ]}
        attachments={[]}
        closed={false}
      />,
    );
    expect(screen.getByText('photos of damage').closest('li')).toHaveTextContent('Received');
    expect(screen.getByText('police report').closest('li')).toHaveTextContent('Missing');
  });
});

describe('a closed claim', () => {
  it('shows its timeline as lived, closed with its reason in plain words', () => {
    inPortal(<StageTimeline claim={{ stage: 'closed', stages_passed: ['intake'], closing_reason: 'withdrawn' }} />);
    const steps = screen.getAllByRole('listitem').map((step) => step.textContent);
    expect(steps).toEqual(['Received (done)', 'Closed — withdrawn (current step)']);
  });

  it('asks for no document: only the files sent are listed', () => {
    inPortal(
      <DocumentChecklist
        documents={[{ type: 'police_report', received: false }]}
        attachments={[
          {
            attachment_id: '6f1c0000-0000-4000-8000-000000000002',
            filename: 'bumper.png',
            content_type: 'image/png',
            size_bytes: 10,
            document_type: 'photos_of_damage',
            received_at: '2026-11-20T10:00:00Z',
            scan_status: 'clean',
            scan_notice: null,
          },
        ]}
        closed
      />,
    );
    expect(screen.queryByText('police report')).toBeNull();
    expect(screen.queryByText(/Missing/)).toBeNull();
    expect(screen.getByRole('heading', { name: 'Files you sent' })).toBeInTheDocument();
  });
});

describe('an update that asked for a document since received', () => {
  it('says "received since" and no longer offers its call to action', () => {
    inPortal(
      <StatusUpdateView
        contactName="Ann Adjuster"
        receivedSince={['police_report']}
        asking={false}
        update={{
          claim_id: '6f1c0000-0000-4000-8000-000000000001',
          channel: 'portal',
          stage: 'triage',
          what_happened: 'We reviewed your photos.',
          what_happens_next: 'We decide who handles your claim.',
          what_we_need_from_you: 'The police report.',
          expected_next_update_by: null,
          cta: { label: 'Send the police report', url: 'https://portal.example/portal/claims/x' },
          contact: null,
          portal_url: null,
          language: 'en',
          adequacy_score: 1,
          adequacy_missing: [],
        }}
      />,
    );
    expect(screen.getByText(/Received since: police report/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Send the police report' })).toBeNull();
  });
});

describe('problemMessage', () => {
  const t = (key: Parameters<typeof translate>[1], values?: Record<string, string | number>) => translate('en', key, values);
  it('turns problem documents into plain words', () => {
    expect(problemMessage({ status: 413, detail: 'A file exceeds the 26214400-byte limit' }, t)).toBe(
      'A file is too big. Each file can be at most 25 MB.',
    );
    expect(problemMessage({ status: 415 }, t)).toContain('cannot accept this kind of file');
    expect(problemMessage({ status: 409 }, t)).toContain('claim is closed');
    expect(problemMessage(null, t)).toContain('connection');
    expect(problemMessage({ status: 400, detail: 'Unexpected field' }, t)).toBe('Something went wrong: Unexpected field');
  });
});

describe('WithdrawSection', () => {
  it('asks for confirmation in a dialog, and "keep my claim" closes it', async () => {
    const user = userEvent.setup();
    inPortal(<WithdrawSection claimId="c1" claimNumber="CLM-2026-000001" token="t" />);
    const dialog = document.querySelector('dialog')!;
    expect(dialog.open).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Withdraw claim' }));
    expect(dialog.open).toBe(true);
    expect(dialog).toHaveTextContent('Do you really want to withdraw claim CLM-2026-000001?');
    await user.click(screen.getByRole('button', { name: 'Keep my claim', hidden: true }));
    expect(dialog.open).toBe(false);
  });
});

describe('LanguageSwitch', () => {
  it('switches the portal between English and Spanish', async () => {
    const user = userEvent.setup();
    inPortal(
      <>
        <LanguageSwitch />
        <StageTimeline claim={{ stage: 'intake', stages_passed: [], closing_reason: null }} />
      </>,
    );
    expect(screen.getByRole('heading', { name: 'Where your claim is' })).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Language'), 'es');
    expect(screen.getByRole('heading', { name: 'En qué punto está su reclamación' })).toBeInTheDocument();
  });
});
