import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { components } from '../api/client';
import { useInvalidate } from '../api/queries';
import { claimChanges, claimKeys } from './claim/claim-api';
import { problemDetail } from '../api/problem';
import { humanise } from './QueuePage';
import { useSession } from './WorkbenchSession';

export type Activity = components['schemas']['Activity'];

/** Today as the API counts diary days: in UTC. */
export const utcToday = () => new Date().toISOString().slice(0, 10);

/** Completing or reassigning an activity; every diary list (the claim's, mine) is read again after. */
function useActivityChange(activity: Activity) {
  const session = useSession();
  const invalidate = useInvalidate();
  const path = { id: activity.claim_id, activity_id: activity.activity_id };
  return useMutation({
    mutationFn: async (assignee: string | null) => {
      const changes = claimChanges(path.id, session);
      const { error } =
        assignee === null
          ? await changes.completeActivity(path.activity_id)
          : await changes.reassignActivity(path.activity_id, { assignee });
      if (error) throw new Error(problemDetail(error, 'The activity could not be changed'));
    },
    onSuccess: () => invalidate(claimKeys.activities()),
  });
}

/** One activity: subject, due day (overdue when before today), priority, who has it; complete or reassign it while open. */
export function ActivityItem({ activity, withClaimLink = false }: { activity: Activity; withClaimLink?: boolean }) {
  const change = useActivityChange(activity);
  const [assignee, setAssignee] = useState('');
  const open = activity.completed_at === null;
  const overdue = open && activity.due_on < utcToday();
  const reassignId = `reassign-${activity.activity_id}`;
  const onReassign = (event: FormEvent) => {
    event.preventDefault();
    if (assignee.trim()) change.mutate(assignee.trim());
  };
  return (
    <li data-testid="activity">
      <p>
        <strong>{activity.subject}</strong> · due <time dateTime={activity.due_on}>{activity.due_on}</time>{' '}
        {overdue && <span className="badge badge--breached">Overdue</span>} · {humanise(activity.priority)} priority
        {activity.kind !== 'manual' && ' · set by the platform'} ·{' '}
        {open ? `with ${activity.assignee}` : `completed by ${activity.completed_by}`}
        {withClaimLink && (
          <>
            {' '}
            · <Link to={`/workbench/claims/${activity.claim_id}`}>Open the claim</Link>
          </>
        )}
      </p>
      {open && (
        <form className="inline-form" onSubmit={onReassign}>
          <button type="button" onClick={() => change.mutate(null)} disabled={change.isPending}>
            Complete
          </button>
          <label htmlFor={reassignId}>Reassign to</label>
          <input id={reassignId} value={assignee} onChange={(e) => setAssignee(e.target.value)} required />
          <button type="submit" className="secondary" disabled={change.isPending}>
            Reassign
          </button>
        </form>
      )}
      {change.error && (
        <p className="error" role="alert">
          {change.error.message}
        </p>
      )}
    </li>
  );
}
