import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { humanise } from '../QueuePage';
import { RequestFailed } from '../RequestFailed';
import { authHeader, type WorkbenchSession } from '../session';
import { problemText } from './claim-file';

export function DeliveriesSection({ claimId, session }: { claimId: string; session: WorkbenchSession }) {
  const deliveries = useQuery({
    queryKey: ['deliveries', claimId],
    queryFn: async () => {
      const { data, error } = await api.GET('/api/claims/claims/{id}/deliveries', {
        params: { path: { id: claimId } },
        headers: authHeader(session),
      });
      if (error) throw new Error(problemText(error, 'The deliveries could not be loaded'));
      return data.items;
    },
  });
  return (
    <section aria-labelledby="deliveries">
      <h2 id="deliveries">Deliveries</h2>
      {deliveries.error && <RequestFailed what="The deliveries" error={deliveries.error} onRetry={() => void deliveries.refetch()} />}
      <ul>
        {deliveries.data?.map((delivery) => (
          <li key={delivery.delivery_id}>
            {humanise(delivery.kind)} by {delivery.channel}:{' '}
            <span className={`badge badge--delivery-${delivery.status}`}>{delivery.status}</span>
            {delivery.attempts > 0 && ` after ${delivery.attempts} attempt(s)`}
            {delivery.last_error && <span className="error"> — {delivery.last_error}</span>}
          </li>
        ))}
      </ul>
      {deliveries.data?.length === 0 && <p>No messages yet.</p>}
    </section>
  );
}
