import { useId, useState, type FormEvent } from 'react';
import { useParams } from 'react-router-dom';
import type { components } from '../api/schema';
import { downloadWithToken, textWithToken } from '../api/download';
import { useInvalidate } from '../api/queries';
import { evidenceKeys, useBinders, useBuildBinder, useDecideRun, useRun, useSubmitRun } from './evidence-api';
import { binderFileName, binderZipUrl, evidenceContentUrl } from './binder-download';
import { ConfirmDialog } from '../workbench/ConfirmDialog';
import { EvidenceForm } from './EvidenceForm';
import { problemText } from '../api/problem';
import { periodText, STATUS_LABELS } from './runs';
import { SOD_MESSAGES, sodReason } from './segregation';
import { canApprove, canAudit, canWrite, type ExaminerSession } from '../workbench/session';
import { VerifierKeyBox } from './VerifierKeys';
import { sameSubject } from '../../../packages/auth/src/subject';

type Run = components['schemas']['GetRunResponse'];

/** /workbench/examiner/runs/:runId — a run's evidence, its submission and decision, and its binders. */
export function RunPage({ session }: { session: ExaminerSession }) {
  const { runId = '' } = useParams();
  const invalidate = useInvalidate();
  const run = useRun(session, runId);
  const reload = () => void invalidate(evidenceKeys.run(runId));
  if (run.error)
    return (
      <p role="alert" className="error">
        {run.error.message}
      </p>
    );
  if (!run.data) return <p role="status">Loading the run…</p>;
  const current = run.data;
  const replaceable = current.evidence.filter((item) => item.superseded_by === null);
  return (
    <article aria-labelledby="run-heading">
      <h2 id="run-heading">
        Run of {current.control_key} v{current.control_version}, {periodText(current)}
      </h2>
      <p>
        Status: <span className={`badge badge--${current.status}`}>{STATUS_LABELS[current.status]}</span> · opened by {current.created_by}
        {current.submitted_by && ` · submitted by ${current.submitted_by}`}
      </p>
      <EvidenceTable session={session} evidence={current.evidence} />
      {current.status === 'open' && canWrite(session) && (
        <>
          <EvidenceForm session={session} runId={runId} replaceable={replaceable} onAdded={reload} />
          <SubmitRun session={session} runId={runId} onDone={reload} />
        </>
      )}
      {current.status === 'in_review' && <DecisionSection session={session} run={current} onDone={reload} />}
      <Decisions decisions={current.decisions} />
      <Binders session={session} run={current} />
    </article>
  );
}

function EvidenceTable({ session, evidence }: { session: ExaminerSession; evidence: Run['evidence'] }) {
  if (evidence.length === 0) return <p>No evidence yet.</p>;
  const titles = new Map(evidence.map((item) => [item.evidence_id, item.title]));
  return (
    <table className="data-table">
      <caption>Evidence</caption>
      <thead>
        <tr>
          <th scope="col">Title</th>
          <th scope="col">Kind</th>
          <th scope="col">Collected</th>
          <th scope="col">Added by</th>
          <th scope="col">Flags</th>
        </tr>
      </thead>
      <tbody>
        {evidence.map((item) => (
          <tr key={item.evidence_id} className={item.superseded_by ? 'superseded' : undefined}>
            <td>
              {item.url ? (
                <a href={item.url} rel="noreferrer noopener" target="_blank">
                  {item.title}
                </a>
              ) : (
                item.title
              )}
              {item.supersedes && <span className="note"> (corrects “{titles.get(item.supersedes) ?? item.supersedes}”)</span>}
              <EvidenceContent session={session} item={item} />
            </td>
            <td>{item.kind === 'file' ? `file: ${item.file_name ?? ''}` : item.kind}</td>
            <td>{item.collected_at ? item.collected_at.slice(0, 16).replace('T', ' ') : '—'}</td>
            <td>{item.submitted_by}</td>
            <td>
              {item.out_of_period && <span className="badge badge--warning">Out of period</span>}{' '}
              {item.superseded_by && <span className="badge badge--muted">Superseded</span>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type Item = Run['evidence'][number];

/** A note's text, a record's data, or a link's address, from the JSON the item's sha256 covers. */
export function evidenceText(item: Pick<Item, 'kind'>, stored: string): string {
  const content = JSON.parse(stored) as { description?: string; data?: unknown; url?: string; title?: string };
  if (item.kind === 'record') return JSON.stringify(content.data ?? null, null, 2);
  if (item.kind === 'link') return content.url ?? '';
  return content.description ?? content.title ?? '';
}

/** Opens one item from the run page: a file downloads (the service sends it as an attachment), a note or record shows as text. */
function EvidenceContent({ session, item }: { session: ExaminerSession; item: Item }) {
  const [shown, setShown] = useState<string | null>(null);
  const [error, setError] = useState('');
  const label =
    item.kind === 'file' ? `Download ${item.file_name ?? item.title}` : `${shown === null ? 'Show' : 'Hide'} ${item.kind} “${item.title}”`;
  const open = async () => {
    setError('');
    if (item.kind === 'file') {
      const outcome = await downloadWithToken(evidenceContentUrl(item.evidence_id), session.token, item.file_name ?? item.title);
      if (!outcome.ok) setError(problemText(outcome.problem, outcome.status));
      return;
    }
    if (shown !== null) return setShown(null);
    const outcome = await textWithToken(evidenceContentUrl(item.evidence_id), session.token);
    if (!outcome.ok) return setError(problemText(outcome.problem, outcome.status));
    setShown(evidenceText(item, outcome.value));
  };
  return (
    <>
      {' '}
      <button
        type="button"
        className="link-button"
        aria-expanded={item.kind === 'file' ? undefined : shown !== null}
        onClick={() => void open()}
      >
        {label}
      </button>
      {shown !== null && <pre className="evidence-content">{shown}</pre>}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </>
  );
}

function SubmitRun({ session, runId, onDone }: { session: ExaminerSession; runId: string; onDone: () => void }) {
  const [asking, setAsking] = useState(false);
  const submit = useSubmitRun(session, runId, onDone);
  return (
    <section aria-labelledby="submit-heading">
      <h3 id="submit-heading">Submit for review</h3>
      <p>Once submitted, evidence can no longer be added; someone who did not prepare the run decides.</p>
      <button type="button" onClick={() => setAsking(true)} disabled={submit.isPending}>
        Submit for review
      </button>
      <ConfirmDialog
        open={asking}
        title="Submit this run for review?"
        confirmLabel="Submit"
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          submit.mutate();
        }}
      >
        <p>No evidence can be added after this. An approver who did not prepare the run will decide it.</p>
      </ConfirmDialog>
      {submit.error && (
        <p role="alert" className="error">
          {submit.error.message}
        </p>
      )}
    </section>
  );
}

function DecisionSection({ session, run, onDone }: { session: ExaminerSession; run: Run; onDone: () => void }) {
  const id = useId();
  const [decision, setDecision] = useState<'approved' | 'rejected'>('approved');
  const [rationale, setRationale] = useState('');
  const decide = useDecideRun(session, run.run_id, { decision, rationale: rationale.trim() }, onDone);
  const [asking, setAsking] = useState(false);
  if (!canApprove(session)) {
    return (
      <section aria-labelledby={`${id}-heading`}>
        <h3 id={`${id}-heading`}>Decision</h3>
        <p className="sod">An approver decides this run; your sign-in does not include approving, so you can read it but not decide it.</p>
      </section>
    );
  }
  const blocked = sodReason(run, session.me);
  if (blocked) {
    return (
      <section aria-labelledby={`${id}-heading`}>
        <h3 id={`${id}-heading`}>Decision</h3>
        <p className="sod">{SOD_MESSAGES[blocked]}</p>
      </section>
    );
  }
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setAsking(true);
  };
  const outcome = decision === 'approved' ? 'Approve' : 'Reject';
  return (
    <section aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>Decision</h3>
      <form onSubmit={onSubmit}>
        <fieldset>
          <legend>Outcome</legend>
          {(['approved', 'rejected'] as const).map((value) => (
            <label key={value} className="choice">
              <input type="radio" name="decision" value={value} checked={decision === value} onChange={() => setDecision(value)} />{' '}
              {value === 'approved' ? 'Approve' : 'Reject'}
            </label>
          ))}
        </fieldset>
        <label htmlFor={`${id}-rationale`}>Rationale</label>
        <textarea id={`${id}-rationale`} value={rationale} required rows={3} onChange={(event) => setRationale(event.target.value)} />
        <button type="submit" disabled={decide.isPending || rationale.trim() === ''}>
          Record decision
        </button>
        <ConfirmDialog
          open={asking}
          title={`${outcome} this run?`}
          confirmLabel={outcome}
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            decide.mutate();
          }}
        >
          <p>A decision is final and signed into the audit log with your name and rationale: “{rationale.trim()}”.</p>
        </ConfirmDialog>
        {decide.error && (
          <p role="alert" className="error">
            {decide.error.message}
          </p>
        )}
      </form>
    </section>
  );
}

function Decisions({ decisions }: { decisions: Run['decisions'] }) {
  if (decisions.length === 0) return null;
  return (
    <section aria-labelledby="decisions-heading">
      <h3 id="decisions-heading">Decisions</h3>
      <ul>
        {decisions.map((decision) => (
          <li key={decision.decision_id}>
            {decision.decision === 'approved' ? 'Approved' : 'Rejected'} by {decision.decided_by} on {decision.decided_at.slice(0, 10)}: “
            {decision.rationale}”
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Who may build a binder of this run: anyone with evidence:write, or the approver who decided it (as the service checks). */
function mayBuild(session: ExaminerSession, run: Run): boolean {
  return canWrite(session) || (canApprove(session) && run.decisions.some((decision) => sameSubject(decision.decided_by, session.me)));
}

function Binders({ session, run }: { session: ExaminerSession; run: Run }) {
  const runId = run.run_id;
  const [downloadError, setDownloadError] = useState('');
  const binders = useBinders(session, runId);
  const build = useBuildBinder(session, runId);
  const download = async (binderId: string) => {
    setDownloadError('');
    const outcome = await downloadWithToken(binderZipUrl(binderId), session.token, binderFileName(binderId));
    if (!outcome.ok) setDownloadError(problemText(outcome.problem, outcome.status));
  };
  return (
    <section aria-labelledby="binders-heading">
      <h3 id="binders-heading">Binders</h3>
      {mayBuild(session, run) ? (
        <button type="button" onClick={() => build.mutate()} disabled={build.isPending}>
          Build a binder
        </button>
      ) : (
        <p>A binder of this run is built by someone who prepares evidence (evidence:write), or by the approver who decided it.</p>
      )}
      {(build.error || binders.error) && (
        <p role="alert" className="error">
          {(build.error ?? binders.error)!.message}
        </p>
      )}
      {downloadError && (
        <p role="alert" className="error">
          {downloadError}
        </p>
      )}
      {binders.data && binders.data.length > 0 && (
        <ul className="binders">
          {binders.data.map((binder) => (
            <li key={binder.binder_id}>
              {binder.final ? 'Final' : 'Draft'} binder of {binder.created_at.slice(0, 16).replace('T', ' ')} by {binder.created_by},
              SHA-256 <code>{binder.sha256.slice(0, 16)}…</code>{' '}
              {canAudit(session) ? (
                <button type="button" onClick={() => void download(binder.binder_id)}>
                  Download {binder.final ? 'final' : 'draft'} binder
                </button>
              ) : (
                <span>An examiner (audit:read) downloads it.</span>
              )}
              <VerifierKeyBox session={session} zipName={binderFileName(binder.binder_id)} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
