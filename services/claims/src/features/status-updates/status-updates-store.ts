import { randomUUID } from 'node:crypto';
import type { Knex, PendingWrite } from '@platform/db';
import { computeAdequacy } from './status-update-adequacy';
import type { ClosingReason } from '../../shared/claim-vocabulary';
import type { StatusUpdate } from '../../shared/status-update';
import { openUpdateTexts, sealUpdateTexts } from '../../shared/claimant-fields';

export interface NewStatusUpdate extends Omit<StatusUpdate, 'adequacy_score' | 'adequacy_missing'> {
  created_by: string;
  /** The claim's language when this generated text fell back to English (the catalogue has none for it). */
  language_fallback_from?: string | null;
  /** Why the claim closed, on the update that closed it. */
  closing_reason?: ClosingReason | null;
}

export interface StoredStatusUpdate {
  update_id: string;
  created_at: string;
  created_by: string;
  language_fallback_from: string | null;
  update: StatusUpdate;
}

/** A status_updates row: the date read as text, the numeric score as a string, plus the row's own columns. */
interface StatusUpdateRow extends Omit<StatusUpdate, 'expected_next_update_by' | 'adequacy_score'> {
  update_id: string;
  expected_next_update_by: string | Date | null;
  adequacy_score: string | number;
  created_at: Date | string;
  created_by: string;
  language_fallback_from: string | null;
}

function asDateString(value: string | Date | null): string | null {
  if (value === null) return null;
  if (typeof value === 'string') return value.slice(0, 10);
  // a `date` column read by node-postgres is a local-midnight Date
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
}

/**
 * A stored contact as the StatusUpdate has it: `phone` and `email`, nothing else. Rows written before the
 * StatusUpdate lost `contact.name` may still hold one; it is never read back.
 */
function toContact(contact: StatusUpdate['contact'] | null): StatusUpdate['contact'] {
  return contact === null ? null : { phone: contact.phone, email: contact.email };
}

/** The thirteen fields of a stored row, and no others. */
function toStatusUpdate(row: StatusUpdateRow): StatusUpdate {
  return {
    claim_id: row.claim_id,
    channel: row.channel,
    stage: row.stage,
    what_happened: row.what_happened,
    what_happens_next: row.what_happens_next,
    what_we_need_from_you: row.what_we_need_from_you,
    expected_next_update_by: asDateString(row.expected_next_update_by),
    cta: row.cta,
    contact: toContact(row.contact),
    portal_url: row.portal_url,
    language: row.language,
    adequacy_score: Number(row.adequacy_score),
    adequacy_missing: row.adequacy_missing,
  };
}

function toStored(row: StatusUpdateRow, key: Buffer | null): StoredStatusUpdate {
  row = openUpdateTexts(key, row);
  return {
    update_id: row.update_id,
    created_at: new Date(row.created_at).toISOString(),
    created_by: row.created_by,
    language_fallback_from: row.language_fallback_from,
    update: toStatusUpdate(row),
  };
}

const SELECT_COLUMNS = `update_id, claim_id, channel, stage, what_happened, what_happens_next, what_we_need_from_you,
  to_char(expected_next_update_by, 'YYYY-MM-DD') AS expected_next_update_by, cta, contact, portal_url, language,
  adequacy_score, adequacy_missing, created_at, created_by, language_fallback_from`;

/** The status updates of claims of one claimant, whose texts are sealed with their data key `key` (null: plain text). */
export function statusUpdatesStore(db: Knex, key: Buffer | null) {
  return {
    /**
     * A status update with its adequacy computed here (the one place it is computed), not yet written:
     * `write` stores it when awaited or passed to `writeTogether`, on the transaction of the change it
     * belongs to. `update` is what the stored row reads back as.
     */
    prepare(input: NewStatusUpdate): { write: PendingWrite; update_id: string; update: StatusUpdate } {
      const { adequacy_score, adequacy_missing } = computeAdequacy(input);
      const update: StatusUpdate = {
        claim_id: input.claim_id,
        channel: input.channel,
        stage: input.stage,
        what_happened: input.what_happened,
        what_happens_next: input.what_happens_next,
        what_we_need_from_you: input.what_we_need_from_you,
        expected_next_update_by: input.expected_next_update_by,
        cta: input.cta,
        contact: toContact(input.contact),
        portal_url: input.portal_url,
        language: input.language,
        adequacy_score,
        adequacy_missing,
      };
      const update_id = randomUUID();
      const write = db('status_updates').insert({
        ...sealUpdateTexts(key, update),
        update_id,
        cta: update.cta === null ? null : JSON.stringify(update.cta),
        contact: update.contact === null ? null : JSON.stringify(update.contact),
        adequacy_missing: JSON.stringify(adequacy_missing),
        created_by: input.created_by,
        language_fallback_from: input.language_fallback_from ?? null,
        closing_reason: input.closing_reason ?? null,
      });
      return { write, update_id, update };
    },

    /** Stores a status update (see `prepare`) on the caller's transaction. Returns the stored update. */
    async insert(input: NewStatusUpdate): Promise<StoredStatusUpdate> {
      const [row] = await statusUpdatesStore(db, key).prepare(input).write.returning('*');
      return toStored(row as StatusUpdateRow, key);
    },

    /** One status update by its id (a UUID), or undefined. */
    async find(updateId: string): Promise<StoredStatusUpdate | undefined> {
      const row = await db('status_updates').select(db.raw(SELECT_COLUMNS)).where({ update_id: updateId }).first();
      return row ? toStored(row as StatusUpdateRow, key) : undefined;
    },

    /** A claim's status updates, oldest first. */
    async listOfClaim(claimId: string): Promise<StoredStatusUpdate[]> {
      const rows = await db('status_updates')
        .select(db.raw(SELECT_COLUMNS))
        .where({ claim_id: claimId })
        .orderBy([{ column: 'created_at' }, { column: 'update_id' }]);
      return (rows as StatusUpdateRow[]).map((row) => toStored(row, key));
    },
  };
}
