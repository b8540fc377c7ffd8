import { useId, useState, type FormEvent } from 'react';
import type { components } from '../api/schema';
import { useAuditCheckpoint, useAuditRecords, useRecordInclusion, useVerifyAuditLog, type RecordFilters } from './evidence-api';
import { canAudit, type ExaminerSession } from '../workbench/session';
import { VerifierKeyBox } from './VerifierKeys';

type AuditRecord = components['schemas']['ListAuditRecordsResponse']['items'][number];

const BREAK_REASONS: Record<string, string> = {
  edited_record: 'a record was edited',
  broken_link: 'a record does not link to the one before it',
  gap: 'records are missing (a gap in the sequence)',
  checkpoint_mismatch: 'a signed checkpoint does not match its record',
  bad_signature: 'a checkpoint signature does not verify',
  truncated: 'records after a signed checkpoint were removed',
  tree_mismatch: 'the Merkle tree does not match the records',
};

/**
 * The audit log: verify it on demand, the latest signed checkpoint with its cosignatures, the keys to pin,
 * and the records (filtered on the server), one of which opens with its inclusion proof checked here.
 */
export function AuditPage({ session }: { session: ExaminerSession }) {
  if (!canAudit(session))
    return (
      <section aria-labelledby="audit-heading">
        <h2 id="audit-heading">Audit log</h2>
        <p className="notice">The audit log is read by examiners; your sign-in does not include reading it (audit:read).</p>
      </section>
    );
  return <AuditLog session={session} />;
}

function AuditLog({ session }: { session: ExaminerSession }) {
  const verify = useVerifyAuditLog(session);
  const checkpoint = useAuditCheckpoint(session);
  const result = verify.data;
  return (
    <section aria-labelledby="audit-heading">
      <h2 id="audit-heading">Audit log</h2>
      <button type="button" onClick={() => verify.mutate()} disabled={verify.isPending}>
        Verify the audit log
      </button>
      {verify.isPending && <p role="status">Verifying…</p>}
      {verify.error && (
        <p role="alert" className="error">
          {verify.error.message}
        </p>
      )}
      {result && (
        <div role="status" className={result.valid ? 'verdict verdict--valid' : 'verdict verdict--broken'}>
          <p>
            <strong>{result.valid ? 'Valid' : 'Broken'}</strong>: {result.records_checked} record(s) checked
            {result.first_seq !== null && ` (${result.first_seq}–${result.last_seq})`} in {result.duration_ms} ms.
          </p>
          {result.first_invalid && (
            <p>
              First break at record {result.first_invalid.seq}: {BREAK_REASONS[result.first_invalid.reason] ?? result.first_invalid.reason}.
            </p>
          )}
          {result.checkpoint && (
            <p>
              Latest checkpoint checked: record {result.checkpoint.seq}, signed {result.checkpoint.signed_at.slice(0, 19).replace('T', ' ')}{' '}
              UTC, signature {result.checkpoint.signature_valid ? 'valid' : 'invalid'}.
            </p>
          )}
        </div>
      )}
      <h3>Latest signed checkpoint</h3>
      {checkpoint.error && (
        <p role="alert" className="error">
          {checkpoint.error.message}
        </p>
      )}
      {checkpoint.data === null && <p>No checkpoint has been signed yet.</p>}
      {checkpoint.data && <CheckpointNote note={checkpoint.data} />}
      <VerifierKeyBox session={session} zipName="<binder>.zip" />
      <AuditRecords session={session} />
    </section>
  );
}

const NO_FILTERS: RecordFilters = { action: '', entityId: '', entityType: '', actor: '', from: '', before: '' };

const FILTER_FIELDS: { field: keyof RecordFilters; label: string; type?: string }[] = [
  { field: 'action', label: 'Action (e.g. evidence.run_decided)' },
  { field: 'entityType', label: 'Entity type (run, claim, …)' },
  { field: 'entityId', label: 'Entity id' },
  { field: 'actor', label: 'Actor' },
  { field: 'from', label: 'Recorded from', type: 'datetime-local' },
  { field: 'before', label: 'Recorded before', type: 'datetime-local' },
];

function AuditRecords({ session }: { session: ExaminerSession }) {
  const id = useId();
  const [draft, setDraft] = useState<RecordFilters>(NO_FILTERS);
  const [filters, setFilters] = useState<RecordFilters>(NO_FILTERS);
  const [selected, setSelected] = useState<AuditRecord | null>(null);
  const records = useAuditRecords(session, filters);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSelected(null);
    setFilters(draft);
  };
  const items = records.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>Records</h3>
      <form className="filters" onSubmit={onSubmit}>
        {FILTER_FIELDS.map(({ field, label, type }) => (
          <div key={field}>
            <label htmlFor={`${id}-${field}`}>{label}</label>
            <input
              id={`${id}-${field}`}
              type={type ?? 'text'}
              value={draft[field]}
              maxLength={200}
              onChange={(event) => setDraft((current) => ({ ...current, [field]: event.target.value }))}
            />
          </div>
        ))}
        <button type="submit">Filter records</button>
      </form>
      {records.error && (
        <p role="alert" className="error">
          {records.error.message}
        </p>
      )}
      {records.isPending ? (
        <p role="status">Loading records…</p>
      ) : items.length === 0 ? (
        <p>No record matches.</p>
      ) : (
        <table className="data-table">
          <caption>Audit records, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">Seq</th>
              <th scope="col">Action</th>
              <th scope="col">Entity</th>
              <th scope="col">Actor</th>
              <th scope="col">Recorded (UTC)</th>
            </tr>
          </thead>
          <tbody>
            {items.map((record) => (
              <tr key={record.seq}>
                <td>
                  <button type="button" className="link-button" onClick={() => setSelected(record)}>
                    Record {record.seq}
                  </button>
                </td>
                <td>{record.action}</td>
                <td>
                  {record.entity_type} {record.entity_id}
                </td>
                <td>{record.actor}</td>
                <td>{record.recorded_at.slice(0, 19).replace('T', ' ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {records.hasNextPage && (
        <button type="button" onClick={() => void records.fetchNextPage()} disabled={records.isFetchingNextPage}>
          More records
        </button>
      )}
      {selected && <RecordProof key={selected.seq} session={session} record={selected} />}
    </section>
  );
}

/** One record, and whether the latest checkpoint includes it: its inclusion proof checked in this browser. */
function RecordProof({ session, record }: { session: ExaminerSession; record: AuditRecord }) {
  const id = useId();
  const check = useRecordInclusion(session, record);
  return (
    <section aria-labelledby={`${id}-heading`} className="key-box">
      <h4 id={`${id}-heading`}>Record {record.seq}</h4>
      <pre>{JSON.stringify(record, null, 2)}</pre>
      {check.isPending && <p role="status">Checking its inclusion proof…</p>}
      {check.error && (
        <p role="alert" className="error">
          {check.error.message}
        </p>
      )}
      {check.data === null && <p role="status">No signed checkpoint covers this record yet; check again in a moment.</p>}
      {check.data && (
        <p role="status" className={check.data.verdict.included ? 'verdict verdict--valid' : 'verdict verdict--broken'}>
          {check.data.verdict.included
            ? `Included: checked in this browser, the record’s inclusion proof leads to the root hash of the latest checkpoint (tree size ${check.data.size}).`
            : `Not proven: ${check.data.verdict.reason}.`}
        </p>
      )}
    </section>
  );
}

/** A C2SP signed note: the body (origin, tree size, root hash), a blank line, then one "— name signature" line per signer. */
function CheckpointNote({ note }: { note: string }) {
  const [body = '', signatures = ''] = note.split('\n\n');
  const [origin, size, root] = body.split('\n');
  const signers = signatures
    .split('\n')
    .filter((line) => line.startsWith('— '))
    .map((line) => line.split(' ')[1]);
  return (
    <>
      <dl className="checkpoint">
        <dt>Log</dt>
        <dd>{origin}</dd>
        <dt>Tree size</dt>
        <dd>{size}</dd>
        <dt>Root hash</dt>
        <dd>
          <code>{root}</code>
        </dd>
        <dt>Signed by</dt>
        <dd>{signers.length > 0 ? signers.join(', ') : '—'}</dd>
        <dt>Witness cosignatures</dt>
        <dd>{Math.max(0, signers.length - 1)}</dd>
      </dl>
      <details>
        <summary>The signed note</summary>
        <pre>{note}</pre>
      </details>
    </>
  );
}
