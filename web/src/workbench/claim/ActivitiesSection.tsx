import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { components } from '../../api/client';
import { useInvalidate } from '../../api/queries';
import { claimChanges, claimKeys, useClaimActivities } from './claim-api';
import { ActivityItem, utcToday } from '../activities';
import type { WorkbenchSession } from '../session';
import { ErrorAlert } from './claim-file';
import { problemDetail } from '../../api/problem';

type ActivityRequest = components['schemas']['CreateClaimActivityRequest'];
const PRIORITIES: ActivityRequest['priority'][] = ['low', 'normal', 'high', 'urgent'];

/** The claim's diary: its activities (open first), and a new one for the caller or someone they name. */
export function ActivitiesSection({ claimId, session, open }: { claimId: string; session: WorkbenchSession; open: boolean }) {
  const invalidate = useInvalidate();
  const activities = useClaimActivities(claimId, session);
  const [draft, setDraft] = useState({ subject: '', due_on: utcToday(), priority: 'normal' as ActivityRequest['priority'] });
  const add = useMutation({
    mutationFn: async (body: ActivityRequest) => {
      const { error } = await claimChanges(claimId, session).addActivity(body);
      if (error) throw new Error(problemDetail(error, 'The activity could not be added'));
    },
    onSuccess: async () => {
      setDraft({ ...draft, subject: '' });
      await invalidate(claimKeys.activities());
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(draft);
  };
  return (
    <section aria-labelledby="activities-heading">
      <h2 id="activities-heading">Activities</h2>
      {activities.error && <ErrorAlert error={activities.error} />}
      {activities.data?.length === 0 && <p>No activities.</p>}
      <ul aria-label="Activities of this claim">
        {activities.data?.map((activity) => (
          <ActivityItem key={activity.activity_id} activity={activity} />
        ))}
      </ul>
      {open && (
        <form onSubmit={onSubmit} aria-labelledby="activity-add-heading">
          <h3 id="activity-add-heading">Add an activity</h3>
          <label htmlFor="activity-subject">Subject</label>
          <input
            id="activity-subject"
            value={draft.subject}
            maxLength={200}
            required
            onChange={(e) => setDraft({ ...draft, subject: e.target.value })}
          />
          <label htmlFor="activity-due">Due on</label>
          <input
            id="activity-due"
            type="date"
            value={draft.due_on}
            required
            onChange={(e) => setDraft({ ...draft, due_on: e.target.value })}
          />
          <label htmlFor="activity-priority">Priority</label>
          <select
            id="activity-priority"
            value={draft.priority}
            onChange={(e) => setDraft({ ...draft, priority: e.target.value as ActivityRequest['priority'] })}
          >
            {PRIORITIES.map((priority) => (
              <option key={priority}>{priority}</option>
            ))}
          </select>
          <button type="submit" disabled={add.isPending}>
            Add activity
          </button>
          <ErrorAlert error={add.error} />
        </form>
      )}
    </section>
  );
}
