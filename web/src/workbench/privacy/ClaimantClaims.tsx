import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { humanise } from '../QueuePage';
import { AccessLog } from './AccessLog';
import { ErrorAlert } from '../claim/claim-file';
import { useLegalHoldChange, type ClaimantClaim, type ClaimantRecord, type LegalHold } from './privacy-api';

const dateText = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC';

/** Whether the claim's personal data may go, in words: open, held, kept until a day, or due. */
export function retentionText(claim: ClaimantClaim, now = Date.now()): string {
  if (claim.holds.length > 0) return `Held (${claim.holds.length} legal hold${claim.holds.length > 1 ? 's' : ''})`;
  if (claim.stage !== 'closed') return 'Open: kept while the claim is open';
  if (!claim.retainUntil) return 'Kept: no retention rule for its closing reason';
  return Date.parse(claim.retainUntil) <= now ? 'Retention passed: may be erased' : `Kept until ${dateText(claim.retainUntil)}`;
}

/** The claimant's claims: stage, closing, retention, and their legal holds (placed and released here). */
export function ClaimantClaims({ record, recordKey }: { record: ClaimantRecord; recordKey: readonly unknown[] }) {
  const { claims, erasedAt } = record;
  return (
    <section aria-labelledby="claimant-claims">
      <h2 id="claimant-claims">The claimant&apos;s claims</h2>
      {erasedAt && (
        <p className="tombstone" data-testid="claimant-erased">
          Erased claimant: their personal data was erased on {dateText(erasedAt)}.
        </p>
      )}
      <ul className="privacy-claims" aria-label="Claims of this claimant">
        {claims.map((claim) => (
          <li key={claim.claimId} data-testid="claimant-claim">
            <h3>
              <Link to={`/workbench/claims/${claim.claimId}`}>Claim {claim.claimNumber}</Link>
            </h3>
            <p>
              {humanise(claim.stage)}
              {claim.closingReason
                ? ` (${humanise(claim.closingReason)}${claim.closedAt ? `, ${dateText(claim.closedAt)}` : ''})`
                : ''} · <span data-testid="retention">{retentionText(claim)}</span>
            </p>
            {!erasedAt && <LegalHolds claim={claim} recordKey={recordKey} />}
            <AccessLog claimId={claim.claimId} claimNumber={claim.claimNumber} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function LegalHolds({ claim, recordKey }: { claim: ClaimantClaim; recordKey: readonly unknown[] }) {
  const change = useLegalHoldChange(claim.claimId, recordKey);
  const [reason, setReason] = useState('');
  const id = `hold-reason-${claim.claimId}`;
  const onPlace = (event: FormEvent) => {
    event.preventDefault();
    change.mutate({ place: reason.trim() }, { onSuccess: () => setReason('') });
  };
  return (
    <>
      {claim.holds.length > 0 && (
        <ul aria-label={`Legal holds on claim ${claim.claimNumber}`}>
          {claim.holds.map((hold) => (
            <li key={hold.hold_id} data-testid="legal-hold">
              Legal hold by {hold.placed_by} on {dateText(hold.placed_at)}: {hold.reason}
              <ReleaseHold hold={hold} onRelease={(why) => change.mutate({ release: hold.hold_id, reason: why })} busy={change.isPending} />
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={onPlace} className="privacy-inline" aria-label={`Place a legal hold on claim ${claim.claimNumber}`}>
        <label htmlFor={id}>Legal hold reason</label>
        <input id={id} value={reason} onChange={(event) => setReason(event.target.value)} required maxLength={2000} />
        <button type="submit" disabled={change.isPending}>
          Place legal hold
        </button>
      </form>
      <ErrorAlert error={change.error} />
    </>
  );
}

/** Releasing a hold is a decision: who and why are recorded with it. */
function ReleaseHold({ hold, onRelease, busy }: { hold: LegalHold; onRelease: (reason: string) => void; busy: boolean }) {
  const [reason, setReason] = useState('');
  const id = `release-reason-${hold.hold_id}`;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    onRelease(reason.trim());
  };
  return (
    <form onSubmit={onSubmit} className="privacy-inline" aria-label={`Release the legal hold placed by ${hold.placed_by}`}>
      <label htmlFor={id}>Why it is released</label>
      <input id={id} value={reason} onChange={(event) => setReason(event.target.value)} required maxLength={2000} />
      <button type="submit" className="secondary" disabled={busy}>
        Release hold
      </button>
    </form>
  );
}
