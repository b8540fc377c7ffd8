import { useId, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { useInvalidate } from '../api/queries';
import { useLanguage } from '../i18n/language';
import { documentTypeName } from '../i18n/messages';
import { portalKeys, type ClaimantStatus } from './portal-api';
import { problemMessage } from '../api/problem';
import { uploadAttachments } from './upload';

type UploadState =
  { kind: 'idle' } | { kind: 'sending'; percent: number } | { kind: 'done'; count: number } | { kind: 'failed'; message: string };

/** Sends one or several files, chosen with the picker or dropped, with a progress bar and plain-language errors. */
export function UploadForm({
  claimId,
  token,
  documents,
}: {
  claimId: string;
  token: string;
  documents: ClaimantStatus['required_documents'];
}) {
  const { t, language } = useLanguage();
  const invalidate = useInvalidate();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const firstMissing = documents.find((document) => !document.received)?.type ?? 'other';
  const [documentType, setDocumentType] = useState(firstMissing);
  const [files, setFiles] = useState<File[]>([]);
  const [dragging, setDragging] = useState(false);
  const [state, setState] = useState<UploadState>({ kind: 'idle' });

  const types = [...new Set([...documents.map((document) => document.type), 'other'])];

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    setFiles([...event.dataTransfer.files]);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (files.length === 0) return setState({ kind: 'failed', message: t('noFiles') });
    setState({ kind: 'sending', percent: 0 });
    const result = await uploadAttachments(claimId, token, files, documentType, (percent) => setState({ kind: 'sending', percent }));
    if (!result.ok) return setState({ kind: 'failed', message: problemMessage(result.problem, t) });
    setState({ kind: 'done', count: result.attachments.length });
    setFiles([]);
    if (input.current) input.current.value = '';
    await invalidate(portalKeys.status(claimId));
  };

  return (
    <section aria-labelledby={`${id}-heading`} id="upload" tabIndex={-1}>
      <h2 id={`${id}-heading`}>{t('uploadHeading')}</h2>
      <form onSubmit={onSubmit} noValidate>
        <label htmlFor={`${id}-type`}>{t('documentType')}</label>
        <select id={`${id}-type`} value={documentType} onChange={(event) => setDocumentType(event.target.value)}>
          {types.map((type) => (
            <option key={type} value={type}>
              {documentTypeName(language, type)}
            </option>
          ))}
        </select>
        <div
          className={dragging ? 'dropzone dropzone--active' : 'dropzone'}
          data-testid="dropzone"
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          <label htmlFor={`${id}-files`}>{t('chooseFiles')}</label>
          <input
            id={`${id}-files`}
            ref={input}
            type="file"
            multiple
            accept=".pdf,.jpg,.jpeg,.png,.heic,.webp,.mp4,application/pdf,image/*,video/mp4"
            onChange={(event) => setFiles([...(event.target.files ?? [])])}
          />
          <span className="dropzone-hint">{t('dropHere')}</span>
          {files.length > 0 && (
            <ul className="chosen-files">
              {files.map((file) => (
                <li key={`${file.name}-${file.size}`}>{file.name}</li>
              ))}
            </ul>
          )}
        </div>
        <button type="submit" disabled={state.kind === 'sending'}>
          {t('upload')}
        </button>
        {state.kind === 'sending' && (
          <div className="progress">
            <label htmlFor={`${id}-progress`}>{t('uploading', { percent: state.percent })}</label>
            <progress id={`${id}-progress`} max={100} value={state.percent} />
          </div>
        )}
        <p role="status" className="status-message">
          {state.kind === 'done' ? t('uploadDone', { count: state.count }) : ''}
        </p>
        {state.kind === 'failed' && (
          <p role="alert" className="error">
            {state.message}
          </p>
        )}
      </form>
    </section>
  );
}
