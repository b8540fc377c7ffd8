import { useState } from 'react';
import { ErrorAlert } from '../claim/claim-file';
import { useAccessLog } from './privacy-api';

/** Who read the claim's personal data, when and why (the latest 25, newest first), read when the officer opens it. */
export function AccessLog({ claimId, claimNumber }: { claimId: string; claimNumber: string }) {
  const [open, setOpen] = useState(false);
  const log = useAccessLog(claimId, open);
  return (
    <details onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Who read its personal data</summary>
      <ErrorAlert error={log.error} />
      {log.data && log.data.length === 0 && <p>Nobody has read it yet.</p>}
      {log.data && log.data.length > 0 && (
        <table className="queue" aria-label={`Reads of claim ${claimNumber}'s personal data, newest first`}>
          <thead>
            <tr>
              <th scope="col">When (UTC)</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {log.data.map((entry) => (
              <tr key={entry.access_id} data-testid="access">
                <td>{entry.accessed_at.slice(0, 16).replace('T', ' ')}</td>
                <td>{entry.actor}</td>
                <td>{entry.kind.replace(/_/g, ' ')}</td>
                <td>{entry.purpose ?? (entry.sensitive ? 'No purpose given (sensitive claim)' : 'No purpose given')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}
