import { useInvalidate } from '../../api/queries';
import type { WorkbenchSession } from '../session';
import {
  emptyDraft,
  refusalOfProblem,
  StatusUpdateComposer,
  type ComposedClosing,
  type ComposedUpdate,
  type ServerRefusal,
} from '../StatusUpdateComposer';
import { composerStart, type ClaimFile } from './claim-file';
import { claimChanges, claimKeys, useClaimMutation } from './claim-api';

/** A refusal whose fields the composer shows next to each field. */
class RefusedError extends Error {
  constructor(readonly refusal: ServerRefusal) {
    super(refusal.detail);
  }
}

export function ComposerSection({
  file,
  session,
  onOutcome: setSent,
}: {
  file: ClaimFile;
  session: WorkbenchSession;
  onOutcome: (outcome: string) => void;
}) {
  const { claim } = file;
  const invalidate = useInvalidate();
  const send = useClaimMutation(claim.claim_id, async (body: ComposedUpdate) => {
    const { data, error } = await claimChanges(claim.claim_id, session).postStatusUpdate(body);
    if (error) throw new RefusedError(refusalOfProblem(error, 'The update could not be sent'));
    setSent(`Update sent (adequacy ${Math.round(data.adequacy_score * 100)}%)`);
    await invalidate(claimKeys.deliveries(claim.claim_id));
  });
  // Closing is its own operation (claims:decide): the reason, and the status update into closed that tells the claimant.
  const close = useClaimMutation(claim.claim_id, async (body: ComposedClosing) => {
    const { data, error } = await claimChanges(claim.claim_id, session).close(body);
    if (error) throw new RefusedError(refusalOfProblem(error, 'The claim could not be closed'));
    setSent(`Claim closed as ${data.reason} (update adequacy ${Math.round(data.status_update.adequacy_score * 100)}%)`);
    await invalidate(claimKeys.deliveries(claim.claim_id));
  });
  const { portalUrl, contact } = composerStart(file);
  const refusal = (failure: Error | null): ServerRefusal | null =>
    failure ? (failure instanceof RefusedError ? failure.refusal : { detail: failure.message, fields: {} }) : null;
  return (
    <section>
      <StatusUpdateComposer
        key={claim.version}
        initial={emptyDraft(claim.stage, claim.language, portalUrl, contact)}
        onSend={(body) => send.mutate(body)}
        onClose={(body) => close.mutate(body)}
        sending={send.isPending || close.isPending}
        error={refusal(send.error) ?? refusal(close.error)}
      />
    </section>
  );
}
