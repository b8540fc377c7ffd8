import {
  CHANNELS,
  CLAIM_STAGES,
  CLOSING_REASONS,
  computeAdequacy,
  type AdequacyField,
  type Channel,
  type ClaimStage,
  type ClosingReason,
} from '@platform/claims-domain';
import { useState, type FormEvent } from 'react';
import type { components } from '../api/client';
import { humanise } from './QueuePage';

/** The StatusUpdate as POST …/status-updates takes it: exactly its fields, nothing about closing. */
export type ComposedUpdate = components['schemas']['CreateStatusUpdateRequest'];
/** POST …/closing: why the claim closes, and the ordinary StatusUpdate into `closed` that tells the claimant. */
export type ComposedClosing = components['schemas']['CloseClaimRequest'];

/** The composer's fields, all text as typed; empty means "not given". */
export interface Draft {
  channel: Channel;
  stage: ClaimStage;
  what_happened: string;
  what_happens_next: string;
  what_we_need_from_you: string;
  expected_next_update_by: string;
  cta_label: string;
  cta_url: string;
  contact_phone: string;
  contact_email: string;
  portal_url: string;
  language: string;
  closing_reason: ClosingReason | '';
  closing_rationale: string;
}

const given = (text: string) => (text.trim() === '' ? null : text.trim());

/** The request the draft makes: a CTA or contact counts only when complete, as the service requires all their parts. */
export function draftToRequest(draft: Draft): ComposedUpdate {
  const cta = given(draft.cta_label) && given(draft.cta_url) ? { label: draft.cta_label.trim(), url: draft.cta_url.trim() } : null;
  const contact =
    given(draft.contact_phone) && given(draft.contact_email)
      ? { phone: draft.contact_phone.trim(), email: draft.contact_email.trim() }
      : null;
  return {
    channel: draft.channel,
    stage: draft.stage,
    what_happened: draft.what_happened.trim(),
    what_happens_next: draft.what_happens_next.trim(),
    what_we_need_from_you: given(draft.what_we_need_from_you),
    expected_next_update_by: given(draft.expected_next_update_by),
    cta,
    contact,
    portal_url: given(draft.portal_url),
    language: given(draft.language),
  };
}

/** A closing draft as POST …/closing takes it: the reason, the rationale when given, and the update into `closed`. */
export function draftToClosing(draft: Draft & { closing_reason: ClosingReason }): ComposedClosing {
  const rationale = given(draft.closing_rationale);
  return {
    reason: draft.closing_reason,
    ...(rationale ? { rationale } : {}),
    status_update: { ...draftToRequest(draft), stage: 'closed' },
  };
}

const MISSING_HINTS: Record<AdequacyField, string> = {
  expected_next_update_by: 'when the customer hears from us next',
  cta: 'a call to action (label and link) for what we need',
  contact: 'who to contact (phone and email)',
  portal_url: 'the portal link',
  language: 'the language of the message',
};

/** The message as each channel would carry it, so the adjuster sees what the customer gets. */
export function channelPreview(request: ComposedUpdate): string {
  const parts = [request.what_happened, request.what_happens_next, request.what_we_need_from_you ?? ''].filter(Boolean);
  const next = request.expected_next_update_by ? `Next update by ${request.expected_next_update_by}.` : '';
  const contact = request.contact ? `Contact ${request.contact.phone} ${request.contact.email}` : '';
  switch (request.channel) {
    case 'sms':
      return [parts.join(' '), next, request.cta?.url ?? request.portal_url ?? ''].filter(Boolean).join(' ').slice(0, 320);
    case 'email':
      return [
        `Subject: An update on your claim`,
        '',
        ...parts,
        next,
        request.cta ? `${request.cta.label}: ${request.cta.url}` : '',
        contact,
      ]
        .filter((line, i) => i < 2 || line)
        .join('\n');
    case 'portal':
      return [...parts, next, request.cta ? `[${request.cta.label}]` : '', request.portal_url ? `Open: ${request.portal_url}` : '', contact]
        .filter(Boolean)
        .join('\n');
  }
}

export function emptyDraft(stage: ClaimStage, language: string, portalUrl: string): Draft {
  return {
    channel: 'email',
    stage,
    what_happened: '',
    what_happens_next: '',
    what_we_need_from_you: '',
    expected_next_update_by: '',
    cta_label: '',
    cta_url: '',
    contact_phone: '',
    contact_email: '',
    portal_url: portalUrl,
    language,
    closing_reason: '',
    closing_rationale: '',
  };
}

/**
 * Writes a status update, or, with stage `closed`, a closing (its reason, a rationale, and the update that
 * tells the claimant): `onSend` gets the StatusUpdate for POST …/status-updates, `onClose` the closing for
 * POST …/closing. The adequacy score and what is missing follow every keystroke, computed by the
 * same function the service scores the update with (@platform/claims-domain); a preview shows the message
 * on the chosen channel.
 */
export function StatusUpdateComposer({
  initial,
  onSend,
  onClose,
  sending,
  error,
}: {
  initial: Draft;
  onSend: (request: ComposedUpdate) => void;
  onClose: (closing: ComposedClosing) => void;
  sending?: boolean;
  error?: string | null;
}) {
  const [draft, setDraft] = useState(initial);
  const request = draftToRequest(draft);
  const { adequacy_score: score, adequacy_missing: missing } = computeAdequacy(request);
  const field = (name: keyof Draft, label: string, type = 'text', required = false) => (
    <div>
      <label htmlFor={`composer-${name}`}>{label}</label>
      <input
        id={`composer-${name}`}
        type={type}
        required={required}
        value={draft[name]}
        onChange={(event) => setDraft({ ...draft, [name]: event.target.value })}
      />
    </div>
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (draft.stage === 'closed' && draft.closing_reason) onClose(draftToClosing({ ...draft, closing_reason: draft.closing_reason }));
    else onSend(request);
  };
  return (
    <form className="composer" onSubmit={onSubmit} aria-labelledby="composer-heading">
      <h2 id="composer-heading">Send a status update</h2>
      <div className="filter-row">
        <div>
          <label htmlFor="composer-channel">Channel</label>
          <select
            id="composer-channel"
            value={draft.channel}
            onChange={(event) => setDraft({ ...draft, channel: event.target.value as Channel })}
          >
            {CHANNELS.map((channel) => (
              <option key={channel} value={channel}>
                {channel}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="composer-stage">Stage</label>
          <select
            id="composer-stage"
            value={draft.stage}
            onChange={(event) => setDraft({ ...draft, stage: event.target.value as ClaimStage })}
          >
            {CLAIM_STAGES.map((stage) => (
              <option key={stage} value={stage}>
                {humanise(stage)}
              </option>
            ))}
          </select>
        </div>
        {draft.stage === 'closed' && (
          <div>
            <label htmlFor="composer-closing_reason">Closing reason</label>
            <select
              id="composer-closing_reason"
              required
              value={draft.closing_reason}
              onChange={(event) => setDraft({ ...draft, closing_reason: event.target.value as ClosingReason })}
            >
              <option value="">Choose…</option>
              {CLOSING_REASONS.map((reason) => (
                <option key={reason} value={reason}>
                  {reason}
                </option>
              ))}
            </select>
          </div>
        )}
        {draft.stage === 'closed' && (
          <div>
            <label htmlFor="composer-closing_rationale">Rationale (internal; required for a denial)</label>
            <textarea
              id="composer-closing_rationale"
              required={draft.closing_reason === 'denied'}
              value={draft.closing_rationale}
              onChange={(event) => setDraft({ ...draft, closing_rationale: event.target.value })}
            />
          </div>
        )}
      </div>
      {field('what_happened', 'What happened', 'text', true)}
      {field('what_happens_next', 'What happens next', 'text', true)}
      {field('what_we_need_from_you', 'What we need from the customer')}
      {field('expected_next_update_by', 'Next update by', 'date')}
      <div className="filter-row">
        {field('cta_label', 'Call to action label')}
        {field('cta_url', 'Call to action link', 'url')}
      </div>
      <div className="filter-row">
        {field('contact_phone', 'Contact phone', 'tel')}
        {field('contact_email', 'Contact email', 'email')}
      </div>
      <div className="filter-row">
        {field('portal_url', 'Portal link', 'url')}
        {field('language', 'Language')}
      </div>
      <section className="adequacy" aria-label="Adequacy">
        <p>
          <label htmlFor="adequacy-meter">Adequacy</label>
          <meter id="adequacy-meter" min={0} max={1} low={0.5} high={0.99} optimum={1} value={score} />{' '}
          <output aria-live="polite" data-testid="adequacy-score">
            {Math.round(score * 100)}%
          </output>
        </p>
        {missing.length > 0 ? (
          <ul aria-label="Missing from this update">
            {missing.map((name) => (
              <li key={name}>Missing: {MISSING_HINTS[name]}</li>
            ))}
          </ul>
        ) : (
          <p>Nothing the customer needs is missing.</p>
        )}
      </section>
      <section aria-label={`Preview on ${draft.channel}`}>
        <h3>Preview ({draft.channel})</h3>
        <pre className="preview">{channelPreview(request)}</pre>
      </section>
      <button type="submit" disabled={sending}>
        {draft.stage === 'closed' ? 'Close the claim' : 'Send update'}
      </button>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
