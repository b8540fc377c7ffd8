import { hasScope, type WorkbenchSession } from '../session';
import { ErrorAlert, type ClaimFile } from './claim-file';
import { claimChanges, useClaimMutation } from './claim-api';
import { problemDetail } from '../../api/problem';

export function AssignmentSection({ file, session }: { file: ClaimFile; session: WorkbenchSession }) {
  const { claim } = file;
  const change = useClaimMutation(claim.claim_id, async (assignee: string | null) => {
    const { error } = await claimChanges(claim.claim_id, session).changeAssignee({ assignee }, claim.version);
    if (error) throw new Error(problemDetail(error, 'The assignee could not be changed'));
  });
  const mine = claim.assignee === session.sub;
  return (
    <section aria-labelledby="assignment">
      <h2 id="assignment">Assignment</h2>
      <p data-testid="assignee">{claim.assignee ? `Assigned to ${mine ? 'you' : claim.assignee}` : 'Nobody has taken this claim'}</p>
      {!claim.assignee && claim.stage !== 'closed' && (
        <button type="button" onClick={() => change.mutate(session.sub)} disabled={change.isPending}>
          Take this claim
        </button>
      )}
      {claim.assignee && (mine || hasScope(session, 'claims:decide')) && (
        <button type="button" className="secondary" onClick={() => change.mutate(null)} disabled={change.isPending}>
          Release
        </button>
      )}
      <ErrorAlert error={change.error} />
    </section>
  );
}
