import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ErrorAlert } from '../claim/claim-file';
import { hasScope } from '../session';
import { usePageTitle, useSession } from '../WorkbenchSession';
import { ClaimantClaims } from './ClaimantClaims';
import { ErasureSection } from './ErasureSection';
import { ExportSection } from './ExportSection';
import { privacyKeys, useClaimantRecord, useClaimOfNumber } from './privacy-api';
import { RetentionPolicySection } from './RetentionPolicySection';
import './privacy.css';

/**
 * /workbench/privacy — the privacy officer's page (privacy:manage): find a claimant from one of their claim
 * numbers; their claims with legal holds and retention; export everything held about them; erase them once
 * the rules allow; and the retention policy. The claim number is in the address, so the view can be reloaded.
 */
export function PrivacyPage() {
  usePageTitle('Privacy');
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const claimNumber = params.get('claim') ?? '';
  if (!hasScope(session, 'privacy:manage'))
    return (
      <main>
        <h1>Privacy</h1>
        <p>This page is for privacy officers: your sign-in does not include managing personal data. Ask for that access if you need it.</p>
      </main>
    );
  return (
    <main className="privacy-page">
      <h1>Privacy</h1>
      <FindClaimant initial={claimNumber} onFind={(number) => setParams({ claim: number })} />
      {claimNumber && <ClaimantView key={claimNumber} claimNumber={claimNumber} />}
      <RetentionPolicySection />
    </main>
  );
}

function FindClaimant({ initial, onFind }: { initial: string; onFind: (claimNumber: string) => void }) {
  const [value, setValue] = useState(initial);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim()) onFind(value.trim().toUpperCase());
  };
  return (
    <section aria-labelledby="find-claimant">
      <h2 id="find-claimant">Find a claimant</h2>
      <form onSubmit={onSubmit} className="privacy-find" role="search" aria-labelledby="find-claimant">
        <label htmlFor="privacy-claim-number">Claim number</label>
        <input
          id="privacy-claim-number"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          required
          placeholder="CLM-2026-000123"
          autoComplete="off"
        />
        <button type="submit">Find</button>
      </form>
    </section>
  );
}

function ClaimantView({ claimNumber }: { claimNumber: string }) {
  const claim = useClaimOfNumber(claimNumber);
  const record = useClaimantRecord(claim.data ?? '');
  const error = claim.error ?? record.error;
  if (error) return <ErrorAlert error={error} />;
  if (!claim.data || !record.data) return <p role="status">Finding the claimant of {claimNumber}…</p>;
  return (
    <>
      <ClaimantClaims record={record.data} recordKey={privacyKeys.claimantRecord(claim.data)} />
      {!record.data.erasedAt && <ExportSection claimantId={record.data.claimantId} />}
      {!record.data.erasedAt && <ErasureSection claimantId={record.data.claimantId} recordKey={privacyKeys.claimantRecord(claim.data)} />}
    </>
  );
}
