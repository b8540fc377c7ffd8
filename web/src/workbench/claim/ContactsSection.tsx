import { useState, type FormEvent } from 'react';
import type { components } from '../../api/client';
import { useInvalidate } from '../../api/queries';
import { RequestFailed } from '../RequestFailed';
import { hasScope, type WorkbenchSession } from '../session';
import { ErrorAlert, type ClaimFile } from './claim-file';
import { claimChanges, claimKeys, useClaimContacts, useClaimMutation } from './claim-api';
import { problemDetail } from '../../api/problem';

type ContactRequest = components['schemas']['RecordClaimContactRequest'];

const CHANNEL_WORDS: Record<ContactRequest['channel'], string> = { call: 'Phone call', email: 'Email', visit: 'Visit' };

/** Contacts made with the claimant; the first one recorded ends the first-contact deadline. */
export function ContactsSection({ file, session }: { file: ClaimFile; session: WorkbenchSession }) {
  const { claim } = file;
  const invalidate = useInvalidate();
  const [recorded, setRecorded] = useState<string | null>(null);
  const contacts = useClaimContacts(claim.claim_id, session);
  const record = useClaimMutation(claim.claim_id, async (body: ContactRequest) => {
    const { error } = await claimChanges(claim.claim_id, session).recordContact(body);
    if (error) throw new Error(problemDetail(error, 'The contact could not be recorded'));
    setRecorded(`${CHANNEL_WORDS[body.channel]} recorded`);
    await invalidate(claimKeys.contacts(claim.claim_id));
  });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const when = String(form.get('occurred_at') ?? '');
    const note = String(form.get('note') ?? '').trim();
    record.mutate({
      channel: String(form.get('channel')) as ContactRequest['channel'],
      // datetime-local is the adjuster's wall clock; the API takes an instant
      ...(when ? { occurred_at: new Date(when).toISOString() } : {}),
      ...(note ? { note } : {}),
    });
  };
  const canRecord = claim.stage !== 'closed' && hasScope(session, 'claims:write');
  return (
    <section aria-labelledby="contacts">
      <h2 id="contacts">Contacts with the claimant</h2>
      {contacts.error && <RequestFailed what="The contacts" error={contacts.error} onRetry={() => void contacts.refetch()} />}
      {contacts.data?.length === 0 && <p>No contact recorded yet.</p>}
      <ul data-testid="contacts">
        {contacts.data?.map((contact) => (
          <li key={contact.contact_id}>
            {CHANNEL_WORDS[contact.channel]} on{' '}
            <time dateTime={contact.occurred_at}>{new Date(contact.occurred_at).toLocaleString('en-GB')}</time> by {contact.recorded_by}
            {contact.note && ` — ${contact.note}`}
          </li>
        ))}
      </ul>
      {canRecord && (
        <form className="contact-form" onSubmit={onSubmit} aria-label="Record a contact">
          <label htmlFor="contact-channel">How</label>
          <select id="contact-channel" name="channel" defaultValue="call">
            {Object.entries(CHANNEL_WORDS).map(([channel, words]) => (
              <option key={channel} value={channel}>
                {words}
              </option>
            ))}
          </select>
          <label htmlFor="contact-when">When (empty: now)</label>
          <input id="contact-when" name="occurred_at" type="datetime-local" />
          <label htmlFor="contact-note">Note (internal)</label>
          <textarea id="contact-note" name="note" maxLength={2000} />
          <button type="submit" disabled={record.isPending}>
            {claim.first_contact_made_at ? 'Record a contact' : 'Record first contact'}
          </button>
        </form>
      )}
      <p role="status">{recorded}</p>
      <ErrorAlert error={record.error} />
    </section>
  );
}
