import { useState, type FormEvent, type ReactNode } from 'react';
import type { components } from '../../api/client';

/** A note as GET/POST …/notes return it. */
export type ClaimNote = Omit<components['schemas']['Note'], 'claim_id'>;

export const NOTE_MAX_CHARS = 10000;
const LINK = /(https?:\/\/[^\s<>"]+)/g;

/** Plain text with http(s) links made clickable; nothing else of the text is interpreted. */
export function withLinks(text: string): ReactNode[] {
  return text.split(LINK).map((part, i) =>
    i % 2 === 1 ? (
      <a key={i} href={part} rel="noopener noreferrer" target="_blank">
        {part}
      </a>
    ) : (
      part
    ),
  );
}

interface Props {
  /** Newest first, as the API pages them. */
  notes: ClaimNote[];
  /** Adds a note (a correction when `corrects` is given); resolves when stored. */
  onAdd: (note: { body: string; topic?: string; corrects?: string }) => Promise<void>;
  hasMore?: boolean;
  onMore?: () => void;
}

/**
 * The claim's internal notes: never edited or deleted, so a mistake is fixed by a correction that names the
 * note it corrects, and both stay on the page. Mount on the claim page with the notes of
 * GET /api/claims/claims/{id}/notes and an onAdd that POSTs to …/notes.
 */
export function NotesPanel({ notes, onAdd, hasMore = false, onMore }: Props) {
  const [body, setBody] = useState('');
  const [topic, setTopic] = useState('');
  const [corrects, setCorrects] = useState<ClaimNote | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const correctedIds = new Set(notes.map((n) => n.corrects).filter(Boolean));
  const byId = new Map(notes.map((n) => [n.note_id, n]));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (body.trim() === '') return setError('Write the note first.');
    setBusy(true);
    setError(null);
    try {
      await onAdd({ body, ...(topic.trim() ? { topic: topic.trim() } : {}), ...(corrects ? { corrects: corrects.note_id } : {}) });
      setBody('');
      setTopic('');
      setCorrects(null);
    } catch (failure) {
      setError(`The note was not saved: ${(failure as Error).message}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="notes-heading">
      <h2 id="notes-heading">Notes</h2>
      <p>Internal only: the claimant never sees a note.</p>
      <form onSubmit={submit}>
        {corrects && (
          <p role="status">
            Correcting the note by {corrects.author} of {new Date(corrects.created_at).toLocaleString()}{' '}
            <button type="button" onClick={() => setCorrects(null)}>
              Cancel correction
            </button>
          </p>
        )}
        <label htmlFor="note-topic">Topic (optional)</label>
        <input id="note-topic" value={topic} maxLength={100} onChange={(e) => setTopic(e.target.value)} />
        <label htmlFor="note-body">{corrects ? 'Correction' : 'Note'}</label>
        <textarea
          id="note-body"
          value={body}
          maxLength={NOTE_MAX_CHARS}
          aria-describedby="note-count"
          onChange={(e) => setBody(e.target.value)}
        />
        <p id="note-count">
          {body.length.toLocaleString('en')} of {NOTE_MAX_CHARS.toLocaleString('en')} characters
        </p>
        {error && <p role="alert">{error}</p>}
        <button type="submit" disabled={busy}>
          {corrects ? 'Add correction' : 'Add note'}
        </button>
      </form>
      {notes.length === 0 ? (
        <p>No notes yet.</p>
      ) : (
        <ol aria-label="Notes, newest first">
          {notes.map((note) => {
            const original = note.corrects ? byId.get(note.corrects) : undefined;
            return (
              <li key={note.note_id} data-testid="note">
                <p>
                  <strong>{note.author}</strong> · <time dateTime={note.created_at}>{new Date(note.created_at).toLocaleString()}</time>
                  {note.topic && <> · {note.topic}</>}
                  {correctedIds.has(note.note_id) && (
                    <>
                      {' '}
                      · <em>Corrected below</em>
                    </>
                  )}
                </p>
                {note.corrects && (
                  <p>Corrects the note of {original ? new Date(original.created_at).toLocaleString() : 'an earlier page'}</p>
                )}
                <p className="note-body">{withLinks(note.body)}</p>
                <button type="button" onClick={() => setCorrects(note)}>
                  Correct this note
                </button>
              </li>
            );
          })}
        </ol>
      )}
      {hasMore && onMore && (
        <button type="button" onClick={onMore}>
          Older notes
        </button>
      )}
    </section>
  );
}
