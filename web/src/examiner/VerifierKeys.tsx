import { useId, useState } from 'react';
import type { ExaminerSession } from '../workbench/session';
import { useVerifierKeys, type VerifierKeys } from './evidence-api';

/** The exact command that verifies a binder offline with the keys to pin (the flags of verify.mjs). */
export function verifyCommand(zipName: string, keys: VerifierKeys): string {
  return ['node verify.mjs', zipName, `--service-key ${keys.service}`, ...keys.witnesses.map((key) => `--witness-key ${key}`)].join(' ');
}

/** A value with a button that copies it; says so once copied (or that the browser refused). */
function Copyable({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState<'' | 'copied' | 'failed'>('');
  const copy = () =>
    navigator.clipboard.writeText(value).then(
      () => setCopied('copied'),
      () => setCopied('failed'),
    );
  return (
    <p>
      <code>{value}</code>{' '}
      <button type="button" className="secondary" onClick={() => void copy()}>
        Copy {label}
      </button>{' '}
      <span role="status">{copied === 'copied' ? 'Copied.' : copied === 'failed' ? 'Copy failed: select the text instead.' : ''}</span>
    </p>
  );
}

/**
 * The keys an examiner pins to verify a binder offline (the service's C2SP verifier key and the witnesses'),
 * each with a copy button, and the exact verify.mjs command for `zipName`.
 */
export function VerifierKeyBox({ session, zipName }: { session: ExaminerSession; zipName: string }) {
  const id = useId();
  const keys = useVerifierKeys(session);
  if (keys.error)
    return (
      <p role="alert" className="error">
        The verifier key could not be read: {keys.error.message}
      </p>
    );
  if (!keys.data) return <p role="status">Loading the verifier key…</p>;
  return (
    <section className="key-box" aria-labelledby={`${id}-heading`}>
      <h4 id={`${id}-heading`}>The key to verify with</h4>
      <p>
        Pin the service’s verifier key once (keep it apart from any binder: a forged binder would carry its own) and verify each binder
        offline with Node.js 20, using the <code>verify.mjs</code> inside the binder.
      </p>
      <p id={`${id}-service`}>Service verifier key (C2SP):</p>
      <Copyable label="service key" value={keys.data.service} />
      {keys.data.witnesses.length > 0 ? (
        keys.data.witnesses.map((key, index) => (
          <div key={key}>
            <p>Witness key {index + 1}:</p>
            <Copyable label={`witness key ${index + 1}`} value={key} />
          </div>
        ))
      ) : (
        <p>No witness cosigns this log (none configured).</p>
      )}
      <p>Command:</p>
      <Copyable label="command" value={verifyCommand(zipName, keys.data)} />
    </section>
  );
}
