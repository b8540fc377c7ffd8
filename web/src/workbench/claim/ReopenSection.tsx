import type { FormEvent } from 'react';
import { humanise } from '../QueuePage';
import type { WorkbenchSession } from '../session';
import { draftToRequest, emptyDraft, stageTemplate, type ComposedUpdate } from '../StatusUpdateComposer';
import { composerStart, ErrorAlert, type ClaimFile } from './claim-file';
import { claimChanges, useClaimMutation } from './claim-api';
import { problemDetail } from '../../api/problem';

const REOPEN_STAGES = ['assigned', 'inspection', 'estimate', 'waiting_on_customer', 'settlement'] as const;

/**
 * A lead (claims:decide) reopens a closed claim into a working stage: a status update into that stage
 * (CONTRACT §3), whose "what happened" is the reason the claimant is told; the timeline records who reopened it.
 */
export function ReopenSection({
  file,
  session,
  onOutcome,
}: {
  file: ClaimFile;
  session: WorkbenchSession;
  onOutcome: (outcome: string) => void;
}) {
  const { claim } = file;
  const reopen = useClaimMutation(claim.claim_id, async (body: ComposedUpdate) => {
    const { error } = await claimChanges(claim.claim_id, session).postStatusUpdate(body);
    if (error) throw new Error(problemDetail(error, 'The claim could not be reopened'));
    onOutcome(`Claim reopened into ${humanise(body.stage)}`);
  });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const stage = String(form.get('stage')) as (typeof REOPEN_STAGES)[number];
    const { portalUrl, contact } = composerStart(file);
    const draft = emptyDraft(stage, claim.language, portalUrl, contact);
    reopen.mutate(
      draftToRequest({
        ...draft,
        channel: claim.preferred_channel,
        what_happened: String(form.get('reason')),
        what_happens_next: stageTemplate(stage, claim.language),
      }),
    );
  };
  return (
    <form className="composer" onSubmit={onSubmit} aria-labelledby="reopen-heading">
      <h2 id="reopen-heading">Reopen the claim</h2>
      <label htmlFor="reopen-stage">Reopen into</label>
      <select id="reopen-stage" name="stage" defaultValue="assigned">
        {REOPEN_STAGES.map((stage) => (
          <option key={stage} value={stage}>
            {humanise(stage)}
          </option>
        ))}
      </select>
      <label htmlFor="reopen-reason">Reason (told to the claimant)</label>
      <textarea id="reopen-reason" name="reason" required minLength={1} />
      <button type="submit" disabled={reopen.isPending}>
        Reopen the claim
      </button>
      <ErrorAlert error={reopen.error} />
    </form>
  );
}
