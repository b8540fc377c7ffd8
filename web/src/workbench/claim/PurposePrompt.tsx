import { useEffect, useRef, useState, type FormEvent } from 'react';

const storageKey = (claimId: string) => `claim-purpose:${claimId}`;

/** The purpose given for this claim in this tab (kept for the tab's session, so a reload does not ask again). */
export function useAccessPurpose(claimId: string): [string | null, (purpose: string) => void] {
  // read on every render: the page stays mounted when it moves to another claim
  const [, setGiven] = useState<string | null>(null);
  const give = (given: string) => {
    sessionStorage.setItem(storageKey(claimId), given);
    setGiven(given);
  };
  return [sessionStorage.getItem(storageKey(claimId)), give];
}

/**
 * The purpose as an HTTP header can carry it (ISO-8859-1): typographic quotes, dashes and ellipses become their
 * plain forms; null when something else outside it remains (the person is asked to rephrase).
 */
export function headerSafePurpose(text: string): string | null {
  const plain = text
    .trim()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2013\u2014]/g, '-')
    .replace(/\u2026/g, '...');
  return /^[\x20-\x7e\xa0-\xff]+$/.test(plain) ? plain : null;
}

/** The question asked before a sensitive claim's personal data is shown; the answer goes to the access log. */
export function PurposePrompt({ onGive }: { onGive: (purpose: string) => void }) {
  const [purpose, setPurpose] = useState('');
  const [refused, setRefused] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  // the question is what the page is waiting for: keyboard and screen-reader users start at it
  useEffect(() => input.current?.focus(), []);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!purpose.trim()) return;
    const given = headerSafePurpose(purpose);
    setRefused(given === null);
    if (given) onGive(given);
  };
  return (
    <section aria-labelledby="purpose-heading" className="purpose-prompt">
      <h2 id="purpose-heading">Why are you opening this claim?</h2>
      <p>
        This claim holds sensitive personal data (an injury, or a fraud indicator). Say why you need it: your answer is recorded with your
        name in the claim&apos;s access log.
      </p>
      <form onSubmit={onSubmit} aria-labelledby="purpose-heading">
        <label htmlFor="access-purpose">Purpose</label>
        <input
          id="access-purpose"
          ref={input}
          value={purpose}
          onChange={(event) => setPurpose(event.target.value)}
          required
          maxLength={200}
          list="access-purposes"
          aria-invalid={refused}
          aria-describedby={refused ? 'access-purpose-refused' : undefined}
        />
        {refused && (
          <p id="access-purpose-refused" className="error" role="alert">
            Use Latin letters, digits and punctuation only (no emoji or other scripts).
          </p>
        )}
        <datalist id="access-purposes">
          <option value="Handling the claim" />
          <option value="Reviewing the medical report" />
          <option value="Special investigations review" />
          <option value="Answering the claimant's request" />
        </datalist>
        <button type="submit">Show the claim</button>
      </form>
    </section>
  );
}
