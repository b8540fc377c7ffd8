import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client';
import { problemText } from '../../api/problem';
import { ErrorAlert } from '../claim/claim-file';
import { authHeader } from '../session';
import { useSession } from '../WorkbenchSession';

/** Who read the claim's personal data, when and why (the latest 25, newest first), read when the officer opens it. */
export function AccessLog({ claimId, claimNumber }: { claimId: string; claimNumber: string }) {
  const session = useSession();
  const [open, setOpen] = useState(false);
  const log = useQuery({
    queryKey: ['privacy', 'access-log', claimId],
    enabled: open,
    queryFn: async () => {
      const { data, error, response } = await api.GET('/api/claims/claims/{id}/access-log', {
        params: { path: { id: claimId }, query: { limit: 25 } },
        headers: authHeader(session),
      });
      if (error) throw new Error(problemText(error, response.status));
      return data.items;
    },
  });
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
