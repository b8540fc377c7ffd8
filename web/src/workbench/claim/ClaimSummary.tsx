import { describeDocumentType } from '@platform/claims-domain';
import { DeadlineBadge } from '../deadline';
import { humanise } from '../QueuePage';
import type { ClaimFile } from './claim-file';

/** Where the claim is queued: the claim's queue, else what triage found (a lead's decision pending), else not triaged. */
export function queueText(file: Pick<ClaimFile, 'claim' | 'triage' | 'escalation'>): string {
  if (file.claim.queue) return humanise(file.claim.queue);
  if (file.escalation?.status === 'open') return `Waiting for a lead (proposed ${humanise(file.escalation.proposed_queue)})`;
  if (file.triage) return humanise(file.triage.queue);
  return 'Not triaged';
}

function locationText(location: ClaimFile['claim']['loss']['location']): string {
  if (!location) return 'Not given';
  return [location.address_line, location.postal_code, location.city, location.country].filter(Boolean).join(', ');
}

export function ClaimSummary({ file }: { file: ClaimFile }) {
  const { claim } = file;
  return (
    <section aria-labelledby="claim-summary">
      <h2 id="claim-summary">Claim file</h2>
      <dl className="facts">
        <dt>Stage</dt>
        <dd data-testid="claim-stage">{humanise(claim.stage)}</dd>
        <dt>Claimant</dt>
        <dd data-testid="claimant-contact">
          {claim.claimant.name} · {[claim.claimant.email, claim.claimant.phone].filter(Boolean).join(' · ') || 'no contact given'} (prefers{' '}
          {claim.preferred_channel}, language {claim.language}
          {claim.time_zone ? `, ${claim.time_zone}` : ''})
        </dd>
        <dt>Policy</dt>
        <dd data-testid="claim-policy">{claim.policy_number}</dd>
        <dt>Loss</dt>
        <dd>
          {humanise(claim.loss.type)} on {claim.loss.date}: {claim.loss.description}
        </dd>
        <dt>Loss location</dt>
        <dd data-testid="loss-location">{locationText(claim.loss.location)}</dd>
        <dt>Injury</dt>
        <dd data-testid="injury">{claim.injuries === null ? 'Not said' : claim.injuries ? 'Yes, someone was injured' : 'No'}</dd>
        <dt>Estimated amount</dt>
        <dd data-testid="estimated-amount">
          {claim.estimated_amount ? `${claim.estimated_amount.amount} ${claim.estimated_amount.currency}` : 'Not given'}
        </dd>
        <dt>Queue</dt>
        <dd data-testid="claim-queue">{queueText(file)}</dd>
        <dt>Next update due</dt>
        <dd>
          <DeadlineBadge due={claim.next_update_due} />
        </dd>
        {/* The first-contact deadline ends when the claim closes, or once a contact is made (recorded, or the first update a person sent). */}
        {claim.stage !== 'closed' && (
          <>
            <dt>First contact</dt>
            <dd data-testid="first-contact-due">
              {claim.first_contact_made_at ? 'Made' : <DeadlineBadge due={claim.first_contact_due} />}
            </dd>
          </>
        )}
        {claim.closing && (
          <>
            <dt>Closed</dt>
            <dd data-testid="closing-reason">
              {claim.closing.reason}
              {claim.closing.rationale ? ` — ${claim.closing.rationale}` : ''}
            </dd>
          </>
        )}
        <dt>Documents</dt>
        <dd>
          {claim.required_documents.map((doc) => `${describeDocumentType(doc.type)}: ${doc.received ? 'received' : 'missing'}`).join(' · ')}
        </dd>
      </dl>
    </section>
  );
}
