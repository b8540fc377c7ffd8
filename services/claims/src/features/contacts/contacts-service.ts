import { randomUUID } from 'node:crypto';
import type { Principal } from '@platform/auth';
import type { Knex } from '@platform/db';
import { problems } from '@platform/http';
import { recordClaimChange } from '../../shared/claim-change';
import { lockClaim, readClaim } from '../../shared/claim-state';
import { isClosed } from '../../shared/stage-machine';
import { reconcilePlatformActivities } from '../diary';
import { claimContactRecorded } from './contacts-events';
import type { Contact, ContactRequest } from './contacts-schemas';

/** A device clock a little ahead of ours still records "now". */
const CLOCK_SKEW_MS = 5 * 60_000;

interface ContactRow {
  id: string;
  claim_id: string;
  channel: Contact['channel'];
  occurred_at: Date;
  note: string | null;
  recorded_by: string;
  recorded_at: Date;
}

const contactOf = (row: ContactRow): Contact => ({
  contact_id: row.id,
  claim_id: row.claim_id,
  channel: row.channel,
  occurred_at: new Date(row.occurred_at).toISOString(),
  note: row.note,
  recorded_by: row.recorded_by,
  recorded_at: new Date(row.recorded_at).toISOString(),
});

const refuseMoment = (message: string) =>
  problems.unprocessable(`occurred_at ${message}`, { errors: [{ pointer: '/occurred_at', message }] });

/**
 * Contacts with the claimant, appended. The first one meets the first-contact deadline (the table's trigger
 * marks the claim) and completes the assignee's "first contact due" activity in the same transaction.
 */
export const contactsService = (exchange: string) => (db: Knex) => ({
  async record(claimId: string, request: ContactRequest, caller: Principal): Promise<Contact> {
    const claim = await lockClaim(db, claimId);
    if (isClosed(claim.stage)) throw problems.conflict('The claim is closed; reopen it before recording a contact');
    const occurredAt = request.occurred_at === undefined ? new Date() : new Date(request.occurred_at);
    if (occurredAt.getTime() > Date.now() + CLOCK_SKEW_MS) throw refuseMoment('is in the future');
    if (occurredAt < new Date(claim.received_at)) throw refuseMoment('is before the claim was received');
    const [row]: ContactRow[] = await db('claim_contacts')
      .insert({
        id: randomUUID(),
        claim_id: claim.claim_id,
        channel: request.channel,
        occurred_at: occurredAt,
        note: request.note ?? null,
        recorded_by: caller.sub,
      })
      .returning('*');
    await recordClaimChange(db, exchange, {
      claimId: claim.claim_id,
      event: claimContactRecorded,
      actor: caller.sub,
      reason: `Contact by ${request.channel}`,
      data: {
        contact_id: row.id,
        channel: row.channel,
        occurred_at: new Date(row.occurred_at).toISOString(),
        first_contact: claim.first_contact_made_at === null,
      },
    });
    if (claim.first_contact_made_at === null) await reconcilePlatformActivities(db, exchange, claim.claim_id);
    return contactOf(row);
  },

  async list(claimId: string): Promise<{ items: Contact[] }> {
    const claim = await readClaim(db, claimId);
    const rows: ContactRow[] = await db('claim_contacts')
      .where({ claim_id: claim.claim_id })
      .orderBy([
        { column: 'occurred_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .select('*');
    return { items: rows.map(contactOf) };
  },
});
