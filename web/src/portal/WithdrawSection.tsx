import { useRef, useState } from 'react';
import { useInvalidate } from '../api/queries';
import { useLanguage } from '../i18n/language';
import { portalChanges, portalKeys } from './portal-api';

/** Withdraw with a confirmation: a modal <dialog> (focus moves into it, Escape closes it, focus returns to the button). */
export function WithdrawSection({ claimId, claimNumber, token }: { claimId: string; claimNumber: string; token: string }) {
  const { t } = useLanguage();
  const invalidate = useInvalidate();
  const dialog = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const confirm = async () => {
    setSending(true);
    const { response } = await portalChanges.withdraw(claimId, token);
    setSending(false);
    dialog.current?.close();
    if (!response.ok)
      return setError(response.status === 409 ? t('errorWithdrawLate') : t('errorGeneric', { detail: String(response.status) }));
    await invalidate(portalKeys.status(claimId));
  };

  return (
    <section aria-labelledby="withdraw-heading">
      <h2 id="withdraw-heading">{t('withdrawHeading')}</h2>
      <p>{t('withdrawExplain')}</p>
      <button type="button" className="danger" onClick={() => dialog.current?.showModal()}>
        {t('withdraw')}
      </button>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <dialog ref={dialog} aria-labelledby="withdraw-confirm">
        <p id="withdraw-confirm">{t('withdrawConfirm', { number: claimNumber })}</p>
        <div className="dialog-actions">
          <button type="button" autoFocus onClick={() => dialog.current?.close()}>
            {t('withdrawNo')}
          </button>
          <button type="button" className="danger" disabled={sending} onClick={confirm}>
            {t('withdrawYes')}
          </button>
        </div>
      </dialog>
    </section>
  );
}
