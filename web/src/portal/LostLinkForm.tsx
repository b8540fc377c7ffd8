import { useId, useState, type FormEvent } from 'react';
import { portalChanges } from './portal-api';
import { problemDetail } from '../api/problem';
import { useLanguage } from '../i18n/language';

/**
 * "Lost your link?": POST /api/claims/public/access-links always answers 202 with the same body, so the
 * page says the same thing whatever the details were (it must not tell whether a claim exists).
 */
export function LostLinkForm() {
  const { t } = useLanguage();
  const id = useId();
  const [claimNumber, setClaimNumber] = useState('');
  const [contact, setContact] = useState('');
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');
  const [error, setError] = useState('');

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setState('sending');
    const value = contact.trim();
    const body = value.includes('@')
      ? { claim_number: claimNumber.trim(), email: value }
      : { claim_number: claimNumber.trim(), phone: value };
    try {
      const { error: problem, response } = await portalChanges.askForNewLink(body);
      if (response.status === 202) return setState('sent');
      setError(
        response.status === 429 ? t('errorTooMany') : t('errorGeneric', { detail: problemDetail(problem, String(response.status)) }),
      );
    } catch {
      setError(t('errorNetwork'));
    }
    setState('failed');
  };

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{t('lostLinkHeading')}</h2>
      <p>{t('lostLinkExplain')}</p>
      <form onSubmit={onSubmit}>
        <label htmlFor={`${id}-number`}>{t('claimNumberLabel')}</label>
        <input
          id={`${id}-number`}
          name="claim_number"
          required
          maxLength={40}
          autoComplete="off"
          value={claimNumber}
          onChange={(event) => setClaimNumber(event.target.value)}
        />
        <label htmlFor={`${id}-contact`}>{t('emailOrPhone')}</label>
        <input
          id={`${id}-contact`}
          name="contact"
          required
          maxLength={320}
          autoComplete="email"
          value={contact}
          onChange={(event) => setContact(event.target.value)}
        />
        <button type="submit" disabled={state === 'sending'}>
          {t('sendLink')}
        </button>
        <p role="status" className="status-message">
          {state === 'sent' ? t('linkSent') : ''}
        </p>
        {state === 'failed' && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
      </form>
    </section>
  );
}
