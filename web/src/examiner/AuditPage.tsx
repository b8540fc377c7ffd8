import { useMutation, useQuery } from '@tanstack/react-query';
import { problemText } from './problem';
import type { ExaminerSession } from './session';

const BREAK_REASONS: Record<string, string> = {
  edited_record: 'a record was edited',
  broken_link: 'a record does not link to the one before it',
  gap: 'records are missing (a gap in the sequence)',
  checkpoint_mismatch: 'a signed checkpoint does not match its record',
  bad_signature: 'a checkpoint signature does not verify',
  truncated: 'records after a signed checkpoint were removed',
  tree_mismatch: 'the Merkle tree does not match the records',
};

/** Verifies the audit log on demand and shows the result, and the latest signed checkpoint with its cosignatures. */
export function AuditPage({ session }: { session: ExaminerSession }) {
  const verify = useMutation({
    mutationFn: async () => {
      const { data, error, response } = await session.api.GET('/api/evidence/audit/verify');
      if (!data) throw new Error(problemText(error, response.status));
      return data;
    },
  });
  const checkpoint = useQuery({
    queryKey: ['audit-checkpoint'],
    queryFn: async () => {
      const { data, error, response } = await session.api.GET('/api/evidence/audit/checkpoint', { parseAs: 'text' });
      if (response.status === 404) return null;
      if (data === undefined) throw new Error(problemText(error, response.status));
      return data;
    },
  });
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
