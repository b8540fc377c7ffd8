import { Link } from 'react-router-dom';
import { useRunsInReview } from './evidence-api';
import { periodText, type RunSummary } from './runs';
import { SOD_MESSAGES, sodReason } from './segregation';
import { canApprove, type ExaminerSession } from '../workbench/session';

/**
 * The approval queue: every run in review, those the examiner may decide first (`awaiting=me`), the others
 * with the reason segregation of duties keeps them from deciding.
 */
export function ApprovalQueue({ session }: { session: ExaminerSession }) {
  const inReview = useRunsInReview(session, false);
  const approver = canApprove(session);
  const awaiting = useRunsInReview(session, true, approver);
  if (inReview.error || awaiting.error)
    return (
      <p role="alert" className="error">
        {(inReview.error ?? awaiting.error)!.message}
      </p>
    );
  if (!inReview.data || (approver && !awaiting.data)) return <p role="status">Loading the approval queue…</p>;
  return (
    <>
      {!approver && (
        <p className="notice">Approvers decide these runs; your sign-in does not include approving, so the queue is for reading.</p>
      )}
      <ApprovalQueueTable inReview={inReview.data} decidable={awaiting.data ?? []} me={session.me} approver={approver} />
    </>
  );
}

export function ApprovalQueueTable({
  inReview,
  decidable,
  me,
  approver = true,
}: {
  inReview: readonly RunSummary[];
  decidable: readonly RunSummary[];
  me: string | null;
  approver?: boolean;
}) {
  const mine = new Set(decidable.map((run) => run.run_id));
  const ordered = [...decidable, ...inReview.filter((run) => !mine.has(run.run_id))];
  if (ordered.length === 0) return <p>No run is waiting for a decision.</p>;
  return (
    <table className="data-table">
      <caption>Runs in review ({decidable.length} for you to decide)</caption>
      <thead>
        <tr>
          <th scope="col">Control</th>
          <th scope="col">Period</th>
          <th scope="col">Submitted by</th>
          <th scope="col">Decision</th>
        </tr>
      </thead>
      <tbody>
        {ordered.map((run) => (
          <tr key={run.run_id}>
            <td>
              {run.control_key} v{run.control_version}
            </td>
            <td>{periodText(run)}</td>
            <td>{run.submitted_by ?? '—'}</td>
            <td>
              {mine.has(run.run_id) ? (
                <Link to={`/workbench/examiner/runs/${run.run_id}`}>Review and decide {run.control_key}</Link>
              ) : (
                <>
                  {approver && <span className="sod">{SOD_MESSAGES[sodReason(run, me) ?? 'added_evidence']}</span>}{' '}
                  <Link to={`/workbench/examiner/runs/${run.run_id}`}>View {run.control_key}</Link>
                </>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
