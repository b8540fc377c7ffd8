import { humanise } from '../QueuePage';
import { RequestFailed } from '../RequestFailed';
import { type WorkbenchSession } from '../session';
import { useClaimDeliveries } from './claim-api';

export function DeliveriesSection({ claimId, session }: { claimId: string; session: WorkbenchSession }) {
  const deliveries = useClaimDeliveries(claimId, session);
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
