import { useId, useRef, useState, type FormEvent } from 'react';
import type { components } from '../api/schema';
import { postFormWithProgress } from '../api/upload';
import { problemText } from '../api/problem';
import type { ExaminerSession } from '../workbench/session';
import { attachEvidence } from './evidence-api';

type JsonEvidence = components['schemas']['AddEvidenceRequest'];
type Kind = JsonEvidence['kind'] | 'file';

const KIND_LABELS: Record<Kind, string> = { note: 'Note', link: 'Link', record: 'Record (JSON)', file: 'File' };

type SendState = { kind: 'idle' } | { kind: 'sending'; percent: number } | { kind: 'done' } | { kind: 'failed'; message: string };

/** What the form holds before it is sent; `collected_at` as the browser's local date and time input gives it. */
export interface EvidenceDraft {
  kind: Kind;
  title: string;
  description: string;
  collectedAt: string;
  source: string;
  supersedes: string;
  url: string;
  data: string;
}

/** The JSON body of a note, link or record, or the reason it cannot be sent (a record must be a JSON object). */
export function jsonEvidenceBody(draft: EvidenceDraft): { body: JsonEvidence } | { error: string } {
  if (draft.kind === 'file') return { error: 'A file is sent as a form' };
  const body: JsonEvidence = { kind: draft.kind, title: draft.title.trim(), ...optionalFields(draft) };
  if (draft.kind === 'link') body.url = draft.url.trim();
  if (draft.kind === 'record') {
    let data: unknown;
    try {
      data = JSON.parse(draft.data);
    } catch {
      return { error: 'The record must be valid JSON.' };
    }
    if (typeof data !== 'object' || data === null || Array.isArray(data))
      return { error: 'The record must be a JSON object, like {"reviewed": 10}.' };
    body.data = data as JsonEvidence['data'];
  }
  return { body };
}

function optionalFields(draft: EvidenceDraft) {
  return {
    ...(draft.description.trim() ? { description: draft.description.trim() } : {}),
    ...(draft.collectedAt ? { collected_at: new Date(draft.collectedAt).toISOString() } : {}),
    ...(draft.source.trim() ? { source: draft.source.trim() } : {}),
    ...(draft.supersedes ? { supersedes: draft.supersedes } : {}),
  };
}

const EMPTY: EvidenceDraft = { kind: 'note', title: '', description: '', collectedAt: '', source: '', supersedes: '', url: '', data: '' };

/**
 * Adds a note, link, record or file to an open run; a file goes with a progress bar. `onAdded` runs after
 * the service accepted it (the page then reloads the run).
 */
export function EvidenceForm({
  session,
  runId,
  replaceable,
  onAdded,
}: {
  session: ExaminerSession;
  runId: string;
  replaceable: readonly { evidence_id: string; title: string }[];
  onAdded: () => void;
}) {
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [draft, setDraft] = useState<EvidenceDraft>(EMPTY);
  const [file, setFile] = useState<File | null>(null);
  const [state, setState] = useState<SendState>({ kind: 'idle' });
  const set = (change: Partial<EvidenceDraft>) => setDraft((current) => ({ ...current, ...change }));

  const finish = (outcome: { ok: true } | { ok: false; message: string }) => {
    if (!outcome.ok) return setState({ kind: 'failed', message: outcome.message });
    setState({ kind: 'done' });
    setDraft(EMPTY);
    setFile(null);
    if (fileInput.current) fileInput.current.value = '';
    onAdded();
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (draft.kind === 'file') {
      if (!file) return setState({ kind: 'failed', message: 'Choose a file to add.' });
      const form = new FormData();
      for (const [name, value] of Object.entries(optionalFields(draft))) form.append(name, value);
      if (draft.title.trim()) form.append('title', draft.title.trim());
      form.append('file', file, file.name);
      setState({ kind: 'sending', percent: 0 });
      const outcome = await postFormWithProgress(
        `/api/evidence/runs/${encodeURIComponent(runId)}/evidence`,
        session.token,
        form,
        (percent) => setState({ kind: 'sending', percent }),
      );
      return finish(outcome.ok ? outcome : { ok: false, message: problemText(outcome.problem) });
    }
    const built = jsonEvidenceBody(draft);
    if ('error' in built) return setState({ kind: 'failed', message: built.error });
    setState({ kind: 'sending', percent: 0 });
    const { error, response } = await attachEvidence(session, runId, built.body);
    finish(response.ok ? { ok: true } : { ok: false, message: problemText(error, response.status) });
  };

  return (
    <form className="evidence-form" onSubmit={onSubmit} aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>Add evidence</h3>
      <label htmlFor={`${id}-kind`}>Kind</label>
      <select id={`${id}-kind`} value={draft.kind} onChange={(event) => set({ kind: event.target.value as Kind })}>
        {(Object.keys(KIND_LABELS) as Kind[]).map((kind) => (
          <option key={kind} value={kind}>
            {KIND_LABELS[kind]}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-title`}>{draft.kind === 'file' ? 'Title (the file name when empty)' : 'Title'}</label>
      <input
        id={`${id}-title`}
        value={draft.title}
        required={draft.kind !== 'file'}
        maxLength={300}
        onChange={(event) => set({ title: event.target.value })}
      />
      {draft.kind === 'link' && (
        <>
          <label htmlFor={`${id}-url`}>Address (http or https)</label>
          <input
            id={`${id}-url`}
            type="url"
            value={draft.url}
            required
            maxLength={2048}
            pattern="[Hh][Tt][Tt][Pp][Ss]?://.+"
            onChange={(event) => set({ url: event.target.value })}
          />
        </>
      )}
      {draft.kind === 'record' && (
        <>
          <label htmlFor={`${id}-data`}>Record (a JSON object)</label>
          <textarea id={`${id}-data`} value={draft.data} required rows={4} onChange={(event) => set({ data: event.target.value })} />
        </>
      )}
      {draft.kind === 'file' && (
        <>
          <label htmlFor={`${id}-file`}>File (PDF, PNG, JPEG, ZIP, CSV, JSON or text)</label>
          <input
            id={`${id}-file`}
            ref={fileInput}
            type="file"
            required
            accept=".pdf,.png,.jpg,.jpeg,.zip,.csv,.json,.txt"
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          />
        </>
      )}
      <label htmlFor={`${id}-description`}>Description (optional)</label>
      <textarea
        id={`${id}-description`}
        value={draft.description}
        maxLength={10000}
        rows={2}
        onChange={(event) => set({ description: event.target.value })}
      />
      <label htmlFor={`${id}-collected`}>Collected at (optional)</label>
      <input
        id={`${id}-collected`}
        type="datetime-local"
        value={draft.collectedAt}
        onChange={(event) => set({ collectedAt: event.target.value })}
      />
      <label htmlFor={`${id}-source`}>Source (optional)</label>
      <input id={`${id}-source`} value={draft.source} maxLength={300} onChange={(event) => set({ source: event.target.value })} />
      {replaceable.length > 0 && (
        <>
          <label htmlFor={`${id}-supersedes`}>Corrects (optional)</label>
          <select id={`${id}-supersedes`} value={draft.supersedes} onChange={(event) => set({ supersedes: event.target.value })}>
            <option value="">Nothing, a new item</option>
            {replaceable.map((item) => (
              <option key={item.evidence_id} value={item.evidence_id}>
                {item.title}
              </option>
            ))}
          </select>
        </>
      )}
      <button type="submit" disabled={state.kind === 'sending'}>
        Add evidence
      </button>
      {state.kind === 'sending' && draft.kind === 'file' && (
        <div className="progress">
          <label htmlFor={`${id}-progress`}>Uploading… {state.percent}%</label>
          <progress id={`${id}-progress`} max={100} value={state.percent} />
        </div>
      )}
      <p role="status" className="status-message">
        {state.kind === 'done' ? 'Evidence added.' : ''}
      </p>
      {state.kind === 'failed' && (
        <p role="alert" className="error">
          {state.message}
        </p>
      )}
    </form>
  );
}
