import { useLanguage } from '../i18n/language';
import { documentTypeName } from '../i18n/messages';
import type { ClaimantStatus } from './portal-api';
import { formatBytes } from '../i18n/format';

/** What the claim still needs and what was sent; a closed claim asks for nothing, so it shows only the files sent. */
export function DocumentChecklist({
  documents,
  attachments,
  closed,
}: Pick<ClaimantStatus, 'attachments'> & { documents: ClaimantStatus['required_documents']; closed: boolean }) {
  const { t, language } = useLanguage();
  if (closed && attachments.length === 0) return null;
  return (
    <section aria-labelledby="documents-heading">
      <h2 id="documents-heading">{closed ? t('filesHeading') : t('documentsHeading')}</h2>
      {!closed && (
        <ul className="checklist">
          {documents.map((document) => (
            <li
              key={document.type}
              className={document.received ? 'checklist-item checklist-item--received' : 'checklist-item checklist-item--missing'}
            >
              <span className="checklist-mark" aria-hidden="true">
                {document.received ? '✓' : '○'}
              </span>
              <span>{documentTypeName(language, document.type)}</span>
              <span className="checklist-state">{document.received ? t('received') : t('missing')}</span>
            </li>
          ))}
        </ul>
      )}
      {attachments.length > 0 && (
        <>
          {!closed && <h3>{t('filesHeading')}</h3>}
          <ul className="files">
            {attachments.map((file) => (
              <li key={file.attachment_id}>
                {file.filename} · {documentTypeName(language, file.document_type)} · {formatBytes(file.size_bytes)}
                {file.scan_notice ? <span className="notice"> — {file.scan_notice}</span> : null}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
