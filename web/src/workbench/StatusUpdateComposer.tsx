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
import { LANGUAGES } from '../i18n/messages';
import { humanise } from './QueuePage';
import { closing as validateClosing, statusUpdate as validateStatusUpdate } from './status-update-validate.generated.js';

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
  /** The adjuster said nothing is needed from the customer: "what we need" is null and no call to action is due. */
  nothing_needed: boolean;
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
    what_we_need_from_you: draft.nothing_needed ? null : given(draft.what_we_need_from_you),
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

/** A refusal of one field, in words, shown next to that field. */
export type FieldErrors = Partial<Record<keyof Draft, string>>;

/** Words for a field the API's schema refuses: left empty, or not in the form it takes. */
const EMPTY_WORDS: FieldErrors = {
  what_happened: 'Say what happened',
  what_happens_next: 'Say what happens next',
  cta_label: 'A call to action needs its label',
  cta_url: 'A call to action needs its link',
  contact_phone: 'A contact needs its phone',
  contact_email: 'A contact needs its email',
  closing_reason: 'Choose why the claim closes',
};
const INVALID_WORDS: FieldErrors = {
  cta_url: 'Enter a full link starting with https://',
  portal_url: 'Enter a full link starting with https://',
  contact_phone: 'Enter the phone in international form, e.g. +14155550123',
  contact_email: 'Enter an email address',
  expected_next_update_by: 'Enter a real date',
  language: 'Choose a language from the list',
};

/** The body the draft would send, with a half-given call to action or contact kept (the schema then names the missing half). */
function bodyToCheck(draft: Draft): unknown {
  const either = (a: string, b: string) => given(a) !== null || given(b) !== null;
  const update = {
    ...draftToRequest(draft),
    cta: either(draft.cta_label, draft.cta_url) ? { label: draft.cta_label.trim(), url: draft.cta_url.trim() } : null,
    contact: either(draft.contact_phone, draft.contact_email)
      ? { phone: draft.contact_phone.trim(), email: draft.contact_email.trim() }
      : null,
  };
  if (draft.stage !== 'closed') return update;
  const rationale = given(draft.closing_rationale);
  return { reason: draft.closing_reason, ...(rationale ? { rationale } : {}), status_update: { ...update, stage: 'closed' } };
}

/**
 * What the API would refuse, checked before sending: the body against the API's own JSON Schema (the status update
 * or, into `closed`, the closing request), precompiled by web/scripts/fnol-validator.ts since the CSP allows no
 * eval; each error goes to the field its path names, in words. Two rules of the service are not in the schema and
 * are checked here as it checks them: an http link only on the platform's own origins (`ownOrigins`: the API
 * takes links on its PUBLIC_BASE_URL whatever their scheme outside production), and a denial's rationale.
 */
export function refusals(draft: Draft, ownOrigins: readonly string[]): FieldErrors {
  const errors: FieldErrors = {};
  const validate = draft.stage === 'closed' ? validateClosing : validateStatusUpdate;
  if (!validate(bodyToCheck(draft))) {
    for (const error of validate.errors ?? []) {
      // a nullable object's `null` branch and the oneOf around it: the other branch's errors say what is wrong
      if (error.keyword === 'oneOf' || error.schemaPath.endsWith('/oneOf/0/type')) continue;
      const pointer = error.keyword === 'required' ? `${error.instancePath}/${String(error.params.missingProperty)}` : error.instancePath;
      const name = fieldOfPointer(pointer);
      if (!name || errors[name]) continue;
      const value = draft[name];
      if (typeof value === 'string' && value.trim() === '') errors[name] = EMPTY_WORDS[name] ?? 'Fill this in';
      else if (error.keyword === 'maxLength') errors[name] = `At most ${String(error.params.limit)} characters`;
      else errors[name] = INVALID_WORDS[name] ?? 'Not in a form the service takes';
    }
  }
  for (const name of ['cta_url', 'portal_url'] as const) {
    const text = draft[name].trim();
    if (errors[name] || !URL.canParse(text)) continue;
    const url = new URL(text);
    if (url.protocol === 'http:' && !ownOrigins.includes(url.origin))
      errors[name] = 'The link must start with https:// (or be this platform’s own link)';
  }
  if (draft.stage === 'closed' && draft.closing_reason === 'denied' && !given(draft.closing_rationale))
    errors.closing_rationale = 'A denial needs its rationale';
  return errors;
}

/** The composer field a problem+json `errors[].pointer` names (`/cta/url`, `/status_update/contact/phone`, `/rationale`). */
export function fieldOfPointer(pointer: string): keyof Draft | null {
  const parts = pointer.split('/').filter(Boolean);
  if (parts[0] === 'status_update') parts.shift();
  const [head, sub] = parts;
  if (head === 'rationale') return 'closing_rationale';
  if (head === 'reason') return 'closing_reason';
  if (head === 'cta') return sub === 'label' ? 'cta_label' : 'cta_url';
  if (head === 'contact') return sub === 'email' ? 'contact_email' : 'contact_phone';
  const direct: (keyof Draft)[] = [
    'channel',
    'stage',
    'what_happened',
    'what_happens_next',
    'what_we_need_from_you',
    'expected_next_update_by',
    'portal_url',
    'language',
  ];
  return direct.find((name) => name === head) ?? null;
}

/** A server refusal: problem+json whose `errors[]` name fields; each goes next to its field, the rest in `detail`. */
export interface ServerRefusal {
  detail: string;
  fields: FieldErrors;
}

export function refusalOfProblem(
  problem: { detail?: string; title?: string; errors?: { pointer?: string; message?: string }[] } | undefined,
  fallback: string,
): ServerRefusal {
  const fields: FieldErrors = {};
  for (const error of problem?.errors ?? []) {
    const name = error.pointer ? fieldOfPointer(error.pointer) : null;
    if (name && error.message) fields[name] = fields[name] ? `${fields[name]}; ${error.message}` : error.message;
  }
  return { detail: problem?.detail ?? problem?.title ?? fallback, fields };
}

const MISSING_HINTS: Record<AdequacyField, string> = {
  expected_next_update_by: 'when the customer hears from us next',
  cta: 'what we need from the customer, with a call to action (label and link), or "nothing needed"',
  contact: 'who to contact (phone and email)',
  portal_url: 'the portal link',
  language: 'the language of the message',
};

const PREVIEW_WORDS = {
  en: { subject: 'Subject: An update on your claim', next: 'Next update by {date}.', contact: 'Contact', open: 'Open' },
  es: {
    subject: 'Asunto: Novedades sobre su reclamación',
    next: 'Próxima actualización antes del {date}.',
    contact: 'Contacto',
    open: 'Abrir',
  },
} as const;

/** The promised day as the claimant reads it: a calendar day, in the message's language (it is a day in their time zone). */
export function promisedDay(date: string, language: string): string {
  return new Intl.DateTimeFormat(language || 'en', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
}

/** The message as each channel would carry it, wholly in the message's language, so the adjuster sees what the customer gets. */
export function channelPreview(request: ComposedUpdate): string {
  const language = request.language ?? 'en';
  const words = PREVIEW_WORDS[language.startsWith('es') ? 'es' : 'en'];
  const parts = [request.what_happened, request.what_happens_next, request.what_we_need_from_you ?? ''].filter(Boolean);
  const next = request.expected_next_update_by ? words.next.replace('{date}', promisedDay(request.expected_next_update_by, language)) : '';
  const contact = request.contact ? `${words.contact} ${request.contact.phone} ${request.contact.email}` : '';
  switch (request.channel) {
    case 'sms':
      return [parts.join(' '), next, request.cta?.url ?? request.portal_url ?? ''].filter(Boolean).join(' ').slice(0, 320);
    case 'email':
      return [words.subject, '', ...parts, next, request.cta ? `${request.cta.label}: ${request.cta.url}` : '', contact]
        .filter((line, i) => i < 2 || line)
        .join('\n');
    case 'portal':
      return [
        ...parts,
        next,
        request.cta ? `[${request.cta.label}]` : '',
        request.portal_url ? `${words.open}: ${request.portal_url}` : '',
        contact,
      ]
        .filter(Boolean)
        .join('\n');
  }
}

/** What happens next at each stage, as the composer starts it (the adjuster edits it), in the message's language. */
const STAGE_TEMPLATES: Record<'en' | 'es', Partial<Record<ClaimStage, string>>> = {
  en: {
    triage: 'We are reviewing your claim to send it to the right team.',
    assigned: 'Your adjuster will contact you to go through your claim.',
    inspection: 'We will arrange an inspection of the damage with you.',
    estimate: 'We are preparing an estimate of the repair or replacement.',
    waiting_on_customer: 'We will continue as soon as we receive what we asked for.',
    settlement: 'We are preparing your settlement.',
    closed: 'Nothing more: your claim is closed.',
  },
  es: {
    triage: 'Estamos revisando su reclamación para enviarla al equipo adecuado.',
    assigned: 'Su tramitador se pondrá en contacto con usted para revisar su reclamación.',
    inspection: 'Acordaremos con usted una inspección de los daños.',
    estimate: 'Estamos preparando una valoración de la reparación o sustitución.',
    waiting_on_customer: 'Continuaremos en cuanto recibamos lo que le pedimos.',
    settlement: 'Estamos preparando su liquidación.',
    closed: 'Nada más: su reclamación está cerrada.',
  },
};

export function stageTemplate(stage: ClaimStage, language: string): string {
  return STAGE_TEMPLATES[language === 'es' ? 'es' : 'en'][stage] ?? '';
}

/** A new draft, pre-filled from the claim: its stage and language, the platform's portal link, the last contact given, the stage's template. */
export function emptyDraft(
  stage: ClaimStage,
  language: string,
  portalUrl: string,
  contact?: { phone: string; email: string } | null,
): Draft {
  return {
    channel: 'email',
    stage,
    what_happened: '',
    what_happens_next: stageTemplate(stage, language),
    what_we_need_from_you: '',
    nothing_needed: false,
    expected_next_update_by: '',
    cta_label: '',
    cta_url: '',
    contact_phone: contact?.phone ?? '',
    contact_email: contact?.email ?? '',
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
  error?: ServerRefusal | null;
}) {
  const [draft, setDraft] = useState(initial);
  const [checked, setChecked] = useState<FieldErrors | null>(null);
  // The platform's own origins: this page's, and that of the portal link the platform itself handed out (its PUBLIC_BASE_URL).
  const ownOrigins = [window.location.origin, ...(URL.canParse(initial.portal_url) ? [new URL(initial.portal_url).origin] : [])];
  const request = draftToRequest(draft);
  // The meter counts the call to action from the start, until the adjuster says nothing is needed: filling a field
  // never lowers it, and once that is settled it is the score the service records (docs/claims.md).
  const { adequacy_score: score, adequacy_missing: missing } = computeAdequacy(request, draft.nothing_needed ? [] : ['cta']);
  // Before sending: what the API would refuse; after a refusal: what the server named, each next to its field.
  const fieldErrors: FieldErrors = { ...(error?.fields ?? {}), ...(checked ?? {}) };
  const update = (name: keyof Draft, value: string | boolean) => {
    const next = { ...draft, [name]: value } as Draft;
    // A new stage or language brings its template, unless the adjuster has written their own.
    if ((name === 'stage' || name === 'language') && draft.what_happens_next === stageTemplate(draft.stage, draft.language))
      next.what_happens_next = stageTemplate(next.stage, next.language);
    setDraft(next);
    if (checked) setChecked(refusals(next, ownOrigins));
  };
  const fieldError = (name: keyof Draft) =>
    fieldErrors[name] ? (
      <span className="error field-error" id={`composer-${name}-error`} data-testid={`composer-${name}-error`}>
        {fieldErrors[name]}
      </span>
    ) : null;
  const describedBy = (name: keyof Draft) => (fieldErrors[name] ? `composer-${name}-error` : undefined);
  const field = (name: Exclude<keyof Draft, 'nothing_needed'>, label: string, type = 'text', required = false) => (
    <div>
      <label htmlFor={`composer-${name}`}>{label}</label>
      <input
        id={`composer-${name}`}
        type={type}
        required={required}
        value={draft[name]}
        aria-invalid={fieldErrors[name] ? true : undefined}
        aria-describedby={describedBy(name)}
        onChange={(event) => update(name, event.target.value)}
      />
      {fieldError(name)}
    </div>
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = refusals(draft, ownOrigins);
    setChecked(found);
    if (Object.keys(found).length > 0) return;
    if (draft.stage === 'closed' && draft.closing_reason) onClose(draftToClosing({ ...draft, closing_reason: draft.closing_reason }));
    else onSend(request);
  };
  const missingTexts = [
    ...(draft.what_happened.trim() ? [] : ['what happened']),
    ...(draft.what_happens_next.trim() ? [] : ['what happens next']),
    ...missing.map((name) => MISSING_HINTS[name]),
  ];
  return (
    <form className="composer" noValidate onSubmit={onSubmit} aria-labelledby="composer-heading">
      <h2 id="composer-heading">Send a status update</h2>
      <div className="filter-row">
        <div>
          <label htmlFor="composer-channel">Channel</label>
          <select id="composer-channel" value={draft.channel} onChange={(event) => update('channel', event.target.value)}>
            {CHANNELS.map((channel) => (
              <option key={channel} value={channel}>
                {channel}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="composer-stage">Stage</label>
          <select id="composer-stage" value={draft.stage} onChange={(event) => update('stage', event.target.value)}>
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
              onChange={(event) => update('closing_reason', event.target.value)}
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
              aria-invalid={fieldErrors.closing_rationale ? true : undefined}
              aria-describedby={describedBy('closing_rationale')}
              onChange={(event) => update('closing_rationale', event.target.value)}
            />
            {fieldError('closing_rationale')}
          </div>
        )}
      </div>
      {field('what_happened', 'What happened', 'text', true)}
      {field('what_happens_next', 'What happens next', 'text', true)}
      {!draft.nothing_needed && field('what_we_need_from_you', 'What we need from the customer')}
      <label className="checkbox">
        <input type="checkbox" checked={draft.nothing_needed} onChange={(event) => update('nothing_needed', event.target.checked)} />
        Nothing needed from the customer now
      </label>
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
        <div>
          <label htmlFor="composer-language">Language</label>
          <select id="composer-language" value={draft.language} onChange={(event) => update('language', event.target.value)}>
            <option value="">Not set</option>
            {Object.entries(LANGUAGES).map(([code, { name }]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </select>
          {fieldError('language')}
        </div>
      </div>
      <section className="adequacy" aria-label="Adequacy">
        <p>
          <label htmlFor="adequacy-meter">Adequacy</label>
          <meter id="adequacy-meter" min={0} max={1} low={0.5} high={0.99} optimum={1} value={score} />{' '}
          <output aria-live="polite" data-testid="adequacy-score">
            {Math.round(score * 100)}%
          </output>
        </p>
        {missingTexts.length > 0 ? (
          <ul aria-label="Missing from this update">
            {missingTexts.map((text) => (
              <li key={text}>Missing: {text}</li>
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
          {Object.keys(error.fields).length > 0 ? `The update was refused: ${Object.values(error.fields).join('; ')}` : error.detail}
        </p>
      )}
    </form>
  );
}
