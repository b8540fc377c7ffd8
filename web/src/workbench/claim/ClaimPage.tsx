import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { RequestFailed } from '../RequestFailed';
import { hasScope } from '../session';
import { usePageTitle, useSession } from '../WorkbenchSession';
import { AdjusterKitSection } from './AdjusterKitSection';
import { AssignmentSection } from './AssignmentSection';
import { AttachmentsSection } from './AttachmentsSection';
import { ActivitiesSection } from './ActivitiesSection';
import { useClaimFile, useClaimSensitivity } from './claim-api';
import { ClaimSummary } from './ClaimSummary';
import { ComposerSection } from './ComposerSection';
import { ContactsSection } from './ContactsSection';
import { DeliveriesSection } from './DeliveriesSection';
import { FinancialsSection } from './FinancialsSection';
import { NotesSection } from './NotesSection';
import { PurposePrompt, useAccessPurpose } from './PurposePrompt';
import { ReopenSection } from './ReopenSection';
import { TimelineSection } from './TimelineSection';
import { TriageSection } from './TriageSection';

/** /workbench/claims/:claimId — everything about one claim, and what an adjuster does with it. */
export function ClaimPage() {
  const { claimId = '' } = useParams();
  const session = useSession();
  const [purpose, givePurpose] = useAccessPurpose(claimId);
  // the flags first: a sensitive claim's file is read only once the person said why (the service refuses it without)
  const sensitivity = useClaimSensitivity(claimId, session);
  const asking = sensitivity.data?.purpose_required === true && purpose === null;
  const file = useClaimFile(claimId, session, purpose, sensitivity.isSuccess && !asking);
  // Kept above the composer: closing unmounts the composer, and the word that the claim closed must stay.
  const [outcome, setOutcome] = useState<string | null>(null);
  usePageTitle(sensitivity.data ? `Claim ${sensitivity.data.claim_number}` : 'Claim');
  const failed = sensitivity.error ?? (asking ? null : file.error);
  if (failed)
    return (
      <main>
        <h1>Claim</h1>
        <RequestFailed what="The claim" error={failed} onRetry={() => void (sensitivity.error ? sensitivity.refetch() : file.refetch())} />
      </main>
    );
  if (asking)
    return (
      <main className="claim-page">
        <h1>Claim {sensitivity.data?.claim_number}</h1>
        <PurposePrompt onGive={givePurpose} />
      </main>
    );
  if (!file.data)
    return (
      <main>
        <h1>Claim</h1>
        <p role="status">Loading…</p>
      </main>
    );
  const { claim } = file.data;
  // After erasure the file holds a tombstone: nothing is shown or asked of a person who is no longer identifiable.
  if (file.data.claimant_erased_at)
    return (
      <main className="claim-page">
        <h1>Claim {claim.claim_number}</h1>
        <p className="tombstone" data-testid="claim-tombstone">
          Erased claimant: their personal data was erased on{' '}
          <time dateTime={file.data.claimant_erased_at}>
            {new Date(file.data.claimant_erased_at).toLocaleString('en-GB', { timeZone: 'UTC' })} UTC
          </time>
          .
        </p>
        <ClaimSummary file={file.data} />
        <FinancialsSection claimId={claim.claim_id} session={session} />
        <TimelineSection file={file.data} />
      </main>
    );
  return (
    <main className="claim-page">
      <h1>Claim {claim.claim_number}</h1>
      <ClaimSummary file={file.data} />
      <AssignmentSection file={file.data} session={session} />
      <ContactsSection file={file.data} session={session} />
      <TriageSection file={file.data} session={session} />
      {claim.stage !== 'closed' && <ComposerSection file={file.data} session={session} onOutcome={setOutcome} />}
      {claim.stage === 'closed' && hasScope(session, 'claims:decide') && (
        <ReopenSection file={file.data} session={session} onOutcome={setOutcome} />
      )}
      <p role="status" className="status-message">
        {outcome}
      </p>
      <FinancialsSection claimId={claim.claim_id} session={session} />
      <ActivitiesSection claimId={claim.claim_id} session={session} open={claim.stage !== 'closed'} />
      <NotesSection claimId={claim.claim_id} session={session} />
      <DeliveriesSection claimId={claim.claim_id} session={session} />
      <AttachmentsSection file={file.data} session={session} purpose={purpose} />
      <AdjusterKitSection claimId={claim.claim_id} session={session} purpose={purpose} />
      <TimelineSection file={file.data} />
    </main>
  );
}
