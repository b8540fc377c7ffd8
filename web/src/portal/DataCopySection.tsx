import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { downloadWithToken } from '../api/download';
import { problemMessage, problemOf } from '../api/problem';
import { useLanguage } from '../i18n/language';
import { portalChanges, useClaimantExport } from './portal-api';

const storageKey = (claimId: string) => `claim-export:${claimId}`;
const POLL_MS = 1500;

/**
 * "Request a copy of my data": after a confirmation the service builds, in the background, a zip of everything
 * it holds about the claimant; the page follows its progress. Once ready, a claimant who follows the claim in
 * the portal downloads it here (a one-time download token); one reached by email or text message gets the
 * one-time link there, as the service delivers it. The request is remembered for this tab.
 */
export function DataCopySection({ claimId, token }: { claimId: string; token: string }) {
  const { t } = useLanguage();
  const dialog = useRef<HTMLDialogElement>(null);
  const [exportId, setExportId] = useState(() => sessionStorage.getItem(storageKey(claimId)));
  const [error, setError] = useState<string | null>(null);
  const request = useMutation({
    mutationFn: async () => {
      const { data, error: refused, response } = await portalChanges.requestExport(claimId, token);
      if (!data) throw new Error(problemMessage(problemOf(refused, response.status), t));
      return data.export_id;
    },
    onSuccess: (id) => {
      sessionStorage.setItem(storageKey(claimId), id);
      setExportId(id);
    },
    onError: (e) => setError(e.message),
  });
  const confirm = () => {
    dialog.current?.close();
    setError(null);
    request.mutate();
  };
  return (
    <section aria-labelledby="data-copy-heading">
      <h2 id="data-copy-heading">{t('dataCopyHeading')}</h2>
      <p>{t('dataCopyExplain')}</p>
      {exportId ? (
        <DataCopyProgress claimId={claimId} token={token} exportId={exportId} />
      ) : (
        <button type="button" className="secondary" disabled={request.isPending} onClick={() => dialog.current?.showModal()}>
          {t('dataCopyRequest')}
        </button>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <dialog ref={dialog} aria-labelledby="data-copy-confirm">
        <p id="data-copy-confirm">{t('dataCopyConfirm')}</p>
        <div className="dialog-actions">
          <button type="button" autoFocus onClick={() => dialog.current?.close()}>
            {t('dataCopyNo')}
          </button>
          <button type="button" onClick={confirm}>
            {t('dataCopyYes')}
          </button>
        </div>
      </dialog>
    </section>
  );
}

function DataCopyProgress({ claimId, token, exportId }: { claimId: string; token: string; exportId: string }) {
  const { t } = useLanguage();
  const [error, setError] = useState<string | null>(null);
  const job = useClaimantExport(claimId, exportId, token, POLL_MS, (problem) => problemMessage(problem, t));
  const download = async () => {
    setError(null);
    const { data, error: refused, response } = await portalChanges.exportDownloadToken(claimId, exportId, token);
    if (!data) return setError(problemMessage(problemOf(refused, response.status), t));
    const fetched = await downloadWithToken(data.archive, data.download_token, `data-${exportId}.zip`);
    if (!fetched.ok) setError(problemMessage(problemOf(fetched.problem, fetched.status), t));
  };
  if (job.error)
    return (
      <p role="alert" className="error">
        {job.error.message}
      </p>
    );
  const { status, progress, delivery } = job.data ?? { status: 'queued', progress: { done: 0, total: null }, delivery: 'portal' };
  const percent = progress.total ? Math.floor((progress.done / progress.total) * 100) : 0;
  return (
    <>
      <p role="status" data-testid="data-copy-status">
        {status === 'ready'
          ? t(delivery === 'portal' ? 'dataCopyReady' : 'dataCopySent')
          : status === 'failed'
            ? t('dataCopyFailed')
            : t('dataCopyRequested', { percent })}
      </p>
      {status === 'ready' && delivery === 'portal' && (
        <button type="button" onClick={() => void download()}>
          {t('dataCopyDownload')}
        </button>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </>
  );
}
