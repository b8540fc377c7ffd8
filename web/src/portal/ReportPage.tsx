import { LOSS_TYPES } from '@platform/claims-domain';
import { useId, useRef, useState, type FormEvent, type ReactElement } from 'react';
import { useNavigate } from 'react-router-dom';
import { portalChanges } from './portal-api';
import { problemDetail } from '../api/problem';
import { LanguageProvider, useLanguage } from '../i18n/language';
import { portalLanguage } from '../i18n/messages';
import { keepAccessToken } from './access-token';
import { PortalLayout } from './PortalPage';
import './report-form.css';
import { fieldAt, reportBody, reportErrors, type ReportField, type ReportFields } from './report-form';

/** /portal/report — a claimant reports a loss; the new claim's page opens with its access token. */
export function PortalReportPage() {
  return (
    <LanguageProvider initial={portalLanguage(navigator.language)}>
      <PortalLayout headingKey="reportHeading">
        <ReportForm />
      </PortalLayout>
    </LanguageProvider>
  );
}

const today = () => new Date().toISOString().slice(0, 10);

function ReportForm() {
  const { t, language } = useLanguage();
  const id = useId();
  const navigate = useNavigate();
  // One key per form, kept across retries: a second submit (a double click, a retry after a lost answer) is
  // answered with the claim the first one created, never a second claim.
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const [fields, setFields] = useState<ReportFields>({
    name: '',
    policyNumber: '',
    lossType: '',
    description: '',
    date: '',
    address: '',
    city: '',
    email: '',
    phone: '',
    language,
  });
  const [errors, setErrors] = useState<Partial<Record<ReportField, string>>>({});
  const [failure, setFailure] = useState('');
  const [sending, setSending] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  const set = (field: ReportField) => (event: { target: { value: string } }) => setFields({ ...fields, [field]: event.target.value });
  const focusFirstError = (found: Partial<Record<ReportField, unknown>>) => {
    const first = (Object.keys(fields) as ReportField[]).find((field) => found[field]);
    if (first) form.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    const found = reportErrors(fields);
    setErrors(Object.fromEntries(Object.entries(found).map(([field, key]) => [field, t(key)])));
    setFailure('');
    if (Object.keys(found).length > 0) return focusFirstError(found);
    setSending(true);
    try {
      const { data, error, response } = await portalChanges.reportLoss(reportBody(fields) as never, idempotencyKey);
      if (data) {
        keepAccessToken(data.claim_id, data.access_token);
        return navigate(`/portal/claims/${data.claim_id}`);
      }
      const problem = error as { detail?: string; errors?: { pointer: string; message: string }[] } | undefined;
      const named = Object.fromEntries(
        (problem?.errors ?? []).flatMap((item) => (fieldAt(item.pointer) ? [[fieldAt(item.pointer), item.message]] : [])),
      ) as Partial<Record<ReportField, string>>;
      setErrors(named);
      focusFirstError(named);
      setFailure(
        response.status === 429 ? t('errorTooMany') : t('errorGeneric', { detail: problemDetail(problem, String(response.status)) }),
      );
    } catch {
      setFailure(t('errorNetwork'));
    } finally {
      setSending(false);
    }
  };

  const field = (name: ReportField, label: string, input: (props: Record<string, unknown>) => ReactElement, hint?: string) => (
    <div className="form-field">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      {hint && (
        <p id={`${id}-${name}-hint`} className="hint">
          {hint}
        </p>
      )}
      {input({
        id: `${id}-${name}`,
        name,
        value: fields[name],
        onChange: set(name),
        'aria-invalid': errors[name] ? true : undefined,
        'aria-describedby': [hint && `${id}-${name}-hint`, errors[name] && `${id}-${name}-error`].filter(Boolean).join(' ') || undefined,
      })}
      {errors[name] && (
        <p id={`${id}-${name}-error`} className="error field-error">
          {errors[name]}
        </p>
      )}
    </div>
  );

  return (
    <form ref={form} onSubmit={onSubmit} noValidate className="report-form">
      <p>{t('reportIntro')}</p>
      {field('name', t('reportName'), (props) => (
        <input {...props} autoComplete="name" />
      ))}
      {field('policyNumber', t('reportPolicy'), (props) => (
        <input {...props} autoComplete="off" />
      ))}
      {field('lossType', t('reportLossType'), (props) => (
        <select {...props}>
          <option value="" />
          {LOSS_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(`lossType_${type}`)}
            </option>
          ))}
        </select>
      ))}
      {field('description', t('reportDescription'), (props) => (
        <textarea {...props} rows={4} />
      ))}
      {field('date', t('reportDate'), (props) => (
        <input {...props} type="date" max={today()} />
      ))}
      {field('address', t('reportAddress'), (props) => (
        <input {...props} autoComplete="street-address" />
      ))}
      {field('city', t('reportCity'), (props) => (
        <input {...props} autoComplete="address-level2" />
      ))}
      <p id={`${id}-contact-hint`}>{t('reportContactHint')}</p>
      {field('email', t('reportEmail'), (props) => (
        <input {...props} type="email" autoComplete="email" />
      ))}
      {field('phone', t('reportPhone'), (props) => (
        <input {...props} type="tel" autoComplete="tel" />
      ))}
      {field('language', t('reportLanguage'), (props) => (
        <select {...props}>
          <option value="en">English</option>
          <option value="es">Español</option>
        </select>
      ))}
      {failure && (
        <p role="alert" className="error">
          {failure}
        </p>
      )}
      {Object.keys(errors).length > 0 && !failure && (
        <p role="alert" className="error">
          {t('reportFixErrors')}
        </p>
      )}
      <button type="submit" disabled={sending}>
        {sending ? t('reportSending') : t('reportSubmit')}
      </button>
    </form>
  );
}
