import { useState } from 'react';
import { downloadWithToken } from '../../api/download';
import { problemText } from '../../api/problem';
import { ErrorAlert } from '../claim/claim-file';
import { useSession } from '../WorkbenchSession';
import { PRIVACY_PURPOSE, useExport, useRequestExport } from './privacy-api';

/** Subject access: everything held about the claimant as a zip (manifest and SHA-256 sums), built in the background. */
export function ExportSection({ claimantId }: { claimantId: string }) {
  const request = useRequestExport(claimantId);
  const exportId = request.data ?? null;
  return (
    <section aria-labelledby="claimant-export">
      <h2 id="claimant-export">Export their data</h2>
      <p>A zip of everything held about the claimant: their claims, the updates sent to them, their files and deliveries.</p>
      <button type="button" onClick={() => request.mutate()} disabled={request.isPending}>
        Request an export
      </button>
      <ErrorAlert error={request.error} />
      {exportId && <ExportProgress claimantId={claimantId} exportId={exportId} />}
    </section>
  );
}

function ExportProgress({ claimantId, exportId }: { claimantId: string; exportId: string }) {
  const session = useSession();
  const job = useExport(claimantId, exportId);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  if (job.error) return <ErrorAlert error={job.error} />;
  if (!job.data) return <p role="status">Export requested…</p>;
  const { status, progress, links, failure } = job.data;
  const fraction = progress.total ? progress.done / progress.total : 0;
  const download = async () => {
    setDownloadError(null);
    const fetched = await downloadWithToken(links.archive!, session.accessToken, `export-${exportId}.zip`, {
      'Access-Purpose': PRIVACY_PURPOSE,
    });
    if (!fetched.ok) setDownloadError(problemText(fetched.problem, fetched.status));
  };
  return (
    <div className="export-progress">
      <p role="status" data-testid="export-status">
        {status === 'ready'
          ? 'The export is ready.'
          : status === 'failed'
            ? `The export failed: ${failure ?? 'no reason given'}`
            : `Building the export… ${Math.floor(fraction * 100)}%`}
      </p>
      {status !== 'ready' && status !== 'failed' && (
        <progress max={1} value={fraction} aria-label="Export progress">
          {Math.floor(fraction * 100)}%
        </progress>
      )}
      {status === 'ready' && links.archive && (
        <button type="button" onClick={() => void download()}>
          Download the export
        </button>
      )}
      {downloadError && (
        <p className="error" role="alert">
          {downloadError}
        </p>
      )}
    </div>
  );
}
