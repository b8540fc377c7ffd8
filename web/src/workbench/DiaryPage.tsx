import { ActivityItem, utcToday } from './activities';
import { ErrorAlert } from './claim/claim-file';
import { useMyActivities, type DiaryDue } from './queue-api';
import { usePageTitle } from './WorkbenchSession';

const LISTS: { due: DiaryDue; title: string; empty: string }[] = [
  { due: 'overdue', title: 'Overdue', empty: 'Nothing overdue.' },
  { due: 'today', title: 'Due today', empty: 'Nothing due today.' },
  { due: 'week', title: 'Later this week', empty: 'Nothing else this week.' },
];

/** One list of my diary, a page at a time; "this week" leaves out today's, which the list above holds. */
function DiaryList({ due, title, empty }: (typeof LISTS)[number]) {
  const activities = useMyActivities(due);
  const today = utcToday();
  const items = (activities.data?.pages.flatMap((page) => page.items) ?? []).filter((a) => due !== 'week' || a.due_on !== today);
  const id = `diary-${due}`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ErrorAlert error={activities.error} />
      {activities.data && items.length === 0 && <p>{empty}</p>}
      <ul aria-label={title}>
        {items.map((activity) => (
          <ActivityItem key={activity.activity_id} activity={activity} withClaimLink />
        ))}
      </ul>
      {activities.hasNextPage && (
        <button type="button" className="secondary" onClick={() => void activities.fetchNextPage()}>
          More {title.toLowerCase()}
        </button>
      )}
    </section>
  );
}

/** /workbench/diary — my open activities across claims: overdue, today, this week; complete or reassign from the list. */
export function DiaryPage() {
  usePageTitle('My diary');
  return (
    <main>
      <h1>My diary</h1>
      {LISTS.map((list) => (
        <DiaryList key={list.due} {...list} />
      ))}
    </main>
  );
}
