import { useState, type FormEvent } from 'react';
import { ConfirmDialog } from '../ConfirmDialog';
import type { components } from '../../api/client';
import { useErasure } from './privacy-api';

type LegalBasis = components['schemas']['ErasureRequest']['legal_basis'];

/** Each legal basis the service accepts, in words. */
const LEGAL_BASES: Record<LegalBasis, string> = {
  no_longer_necessary: 'No longer necessary (GDPR Art. 17(1)(a))',
  consent_withdrawn: 'Consent withdrawn (Art. 17(1)(b))',
  objection: 'Objection to processing (Art. 17(1)(c))',
  unlawful_processing: 'Unlawfully processed (Art. 17(1)(d))',
  legal_obligation: 'Legal obligation to erase (Art. 17(1)(e))',
  child_consent: 'Collected from a child (Art. 17(1)(f))',
  ccpa_deletion_request: 'CCPA deletion request',
  retention_expired: 'Retention period expired',
};

/**
 * Erasure with a reason and a legal basis, after a confirmation. The service decides whether it may happen
 * (no open claim, no legal hold, retention passed); a refusal shows its reason as the service words it.
 */
export function ErasureSection({ claimantId, recordKey }: { claimantId: string; recordKey: readonly unknown[] }) {
  const erase = useErasure(claimantId, recordKey);
  const [reason, setReason] = useState('');
  const [legalBasis, setLegalBasis] = useState<LegalBasis | ''>('');
  const [confirming, setConfirming] = useState(false);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setConfirming(true);
  };
  return (
    <section aria-labelledby="claimant-erasure">
      <h2 id="claimant-erasure">Erase the claimant</h2>
      <p>
        Destroys their data key and files and replaces what identifies them by a tombstone. Refused while a claim is open, a legal hold
        stands or the retention period has not passed. The audit log keeps only what carries no personal data.
      </p>
      <form onSubmit={onSubmit} aria-label="Erase the claimant">
        <label htmlFor="erasure-reason">Reason</label>
        <textarea id="erasure-reason" value={reason} onChange={(event) => setReason(event.target.value)} required maxLength={1000} />
        <label htmlFor="erasure-basis">Legal basis</label>
        <select id="erasure-basis" value={legalBasis} onChange={(event) => setLegalBasis(event.target.value as LegalBasis)} required>
          <option value="">Choose the legal basis</option>
          {Object.entries(LEGAL_BASES).map(([basis, words]) => (
            <option key={basis} value={basis}>
              {words}
            </option>
          ))}
        </select>
        <button type="submit" className="danger" disabled={erase.isPending}>
          Erase…
        </button>
      </form>
      {erase.error && (
        <p className="error" role="alert" data-testid="erasure-refused">
          {erase.error.message}
        </p>
      )}
      <ConfirmDialog
        open={confirming}
        title="Erase this claimant?"
        confirmLabel="Erase"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          if (legalBasis) erase.mutate({ reason: reason.trim(), legal_basis: legalBasis });
        }}
      >
        <p>Their personal data cannot be recovered afterwards, from any copy.</p>
      </ConfirmDialog>
    </section>
  );
}
