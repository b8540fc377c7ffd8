import { describeDocumentType } from '@platform/claims-domain';
import { useEffect, useState } from 'react';
import type { WorkbenchSession } from '../session';
import { type ClaimFile } from './claim-file';
import { readHeaders } from './claim-api';

/**
 * Fetches a protected file with the token (and the purpose given for the claim, if any) and hands back an object
 * URL the page may show (the CSP allows blob:).
 */
async function fetchObjectUrl(path: string, headers: Record<string, string>): Promise<string> {
  const response = await fetch(path, { headers });
  if (!response.ok) throw new Error(`The file could not be fetched (${response.status})`);
  return URL.createObjectURL(await response.blob());
}

function AttachmentPreview({
  claimId,
  attachment,
  headers,
}: {
  claimId: string;
  attachment: ClaimFile['attachments'][number];
  headers: Record<string, string>;
}) {
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const contentPath = `/api/claims/claims/${claimId}/attachments/${attachment.attachment_id}/content`;
  const previewable = attachment.content_type.startsWith('image/') || attachment.content_type === 'application/pdf';
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  return (
    <li>
      {attachment.filename} ({describeDocumentType(attachment.document_type)}, {attachment.scan_status}){' '}
      {previewable && !url && (
        <button
          type="button"
          className="secondary"
          onClick={() => fetchObjectUrl(contentPath, headers).then(setUrl, (e: Error) => setError(e.message))}
        >
          Preview {attachment.filename}
        </button>
      )}
      <button
        type="button"
        className="secondary"
        onClick={() =>
          fetchObjectUrl(contentPath, headers).then(
            (objectUrl) => downloadObjectUrl(objectUrl, attachment.filename),
            (e: Error) => setError(e.message),
          )
        }
      >
        Download {attachment.filename}
      </button>
      {url && attachment.content_type === 'application/pdf' && (
        <iframe src={url} title={`Preview of ${attachment.filename}`} className="preview-frame" />
      )}
      {url && attachment.content_type.startsWith('image/') && (
        <img src={url} alt={`Preview of ${attachment.filename}`} className="preview-image" />
      )}
      {error && <span className="error"> {error}</span>}
    </li>
  );
}

export function downloadObjectUrl(url: string, filename: string) {
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

export function AttachmentsSection({ file, session, purpose }: { file: ClaimFile; session: WorkbenchSession; purpose: string | null }) {
  const headers = readHeaders(session, purpose);
  return (
    <section aria-labelledby="attachments">
      <h2 id="attachments">Attachments</h2>
      {file.attachments.length === 0 ? (
        <p>No attachments.</p>
      ) : (
        <ul>
          {file.attachments.map((attachment) => (
            <AttachmentPreview key={attachment.attachment_id} claimId={file.claim.claim_id} attachment={attachment} headers={headers} />
          ))}
        </ul>
      )}
    </section>
  );
}
