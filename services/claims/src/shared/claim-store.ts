import { randomUUID } from 'node:crypto';
import type { Knex, PendingWrite } from '@platform/db';
import { UUID_PATTERN } from '@platform/http';
import type { RequiredDocument } from '@platform/claims-domain';
import type { Claim, LossLocation } from './claim-schemas';
import {
  ERASED_NAME,
  ERASED_TEXT,
  claimFieldContext,
  openField,
  reopeningReasonContext,
  sealField,
  sealPlainColumns,
} from './claimant-fields';
import type { Channel, ClaimStage, ClosingReason, LossType } from './claim-vocabulary';

export type { RequiredDocument };

/** What the claimant reported, normalised: the same in a new claim and a stored one. */
type ReportedClaim = Pick<
  Claim,
  | 'claim_number'
  | 'policy_number'
  | 'claimant'
  | 'loss'
  | 'injuries'
  | 'police_report_number'
  | 'estimated_amount'
  | 'preferred_channel'
  | 'language'
  | 'time_zone'
  | 'required_documents'
>;

export interface ClaimWithTokenHash extends Claim {
  access_token_hash: string;
}

interface ClaimRow {
  id: string;
  claim_number: string;
  policy_number: string;
  claimant_id: string;
  claimant_name: string;
  claimant_email: string | null;
  claimant_phone: string | null;
  loss_date: string;
  loss_type: LossType;
  loss_description: string;
  loss_location: LossLocation | null;
  injuries: boolean | null;
  police_report_number: string | null;
  estimated_amount: string | null;
  estimated_currency: string | null;
  preferred_channel: Channel;
  language: string;
  time_zone: string | null;
  stage: ClaimStage;
  queue: string | null;
  assignee: string | null;
  version: number;
  closing_reason: ClosingReason | null;
  closing_rationale: string | null;
  access_token_hash: string;
  required_documents: RequiredDocument[];
  received_at: Date;
  acknowledge_by: Date;
  acknowledged_at: Date | null;
  first_contact_due: Date;
  first_contact_made_at: Date | null;
  next_update_due: Date | null;
  created_at: Date;
  updated_at: Date;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** `loss_date` is read as text so no time zone can shift the calendar date. */
const CLAIM_COLUMNS = `claims.*, to_char(claims.loss_date, 'YYYY-MM-DD') AS loss_date, claims.estimated_amount::text AS estimated_amount`;

function toClaim(row: ClaimRow): ClaimWithTokenHash {
  return {
    claim_id: row.id,
    claim_number: row.claim_number,
    policy_number: row.policy_number,
    claimant_id: row.claimant_id,
    claimant: { name: row.claimant_name, email: row.claimant_email, phone: row.claimant_phone },
    loss: { date: row.loss_date, type: row.loss_type, description: row.loss_description, location: row.loss_location },
    injuries: row.injuries,
    police_report_number: row.police_report_number,
    estimated_amount:
      row.estimated_amount === null || row.estimated_currency === null
        ? null
        : { amount: row.estimated_amount, currency: row.estimated_currency },
    preferred_channel: row.preferred_channel,
    language: row.language,
    time_zone: row.time_zone,
    stage: row.stage,
    queue: row.queue,
    assignee: row.assignee,
    version: row.version,
    closing: row.closing_reason === null ? null : { reason: row.closing_reason, rationale: row.closing_rationale },
    required_documents: row.required_documents,
    received_at: iso(row.received_at)!,
    acknowledge_by: iso(row.acknowledge_by)!,
    acknowledged_at: iso(row.acknowledged_at),
    first_contact_due: iso(row.first_contact_due)!,
    first_contact_made_at: iso(row.first_contact_made_at),
    next_update_due: iso(row.next_update_due),
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
    access_token_hash: row.access_token_hash,
  };
}

/** Strips the token hash: what internal callers see. */
export function withoutTokenHash(claim: ClaimWithTokenHash): Claim {
  const { access_token_hash: _hash, ...rest } = claim;
  return rest;
}

/** The claimant's personal fields of a claim, sealed with their data key (the name search reads the keyed name index, 0025). */
const SEALED_COLUMNS = ['claimant_name', 'claimant_email', 'claimant_phone', 'loss_description', 'police_report_number'] as const;
type PersonalColumn = (typeof SEALED_COLUMNS)[number];

function personalColumnsOf(claim: Pick<Claim, 'claimant' | 'loss' | 'police_report_number'>): Record<PersonalColumn, string | null> {
  return {
    claimant_name: claim.claimant.name,
    claimant_email: claim.claimant.email,
    claimant_phone: claim.claimant.phone,
    loss_description: claim.loss.description,
    police_report_number: claim.police_report_number,
  };
}

/** What the claim's personal columns hold as stored: sealed with `key` (null: encryption off, plain text). */
function sealedColumns(claimId: string, claim: Pick<Claim, 'claimant' | 'loss' | 'police_report_number'>, key: Buffer | null) {
  const columns = personalColumnsOf(claim);
  for (const column of SEALED_COLUMNS) columns[column] = sealField(key, columns[column], claimFieldContext(column, claimId));
  return columns;
}

/**
 * The claim with its personal fields opened with the claimant's data key (ClaimantKeys.keyFor): what
 * every reader of those fields (the claim file, kits, triage, deliveries) works with.
 */
export function openClaim<Read extends Claim>(claim: Read, key: Buffer | null): Read {
  const open = (column: PersonalColumn, value: string | null) => openField(key, value, claimFieldContext(column, claim.claim_id));
  return {
    ...claim,
    claimant: {
      name: open('claimant_name', claim.claimant.name) ?? ERASED_NAME,
      email: open('claimant_email', claim.claimant.email),
      phone: open('claimant_phone', claim.claimant.phone),
    },
    loss: { ...claim.loss, description: open('loss_description', claim.loss.description) ?? ERASED_TEXT },
    police_report_number: open('police_report_number', claim.police_report_number),
  };
}

/** Opens one personal column of a claim read on its own (the list's names, a delivery's address). */
export function openClaimColumn(column: PersonalColumn, claimId: string, value: string | null, key: Buffer | null): string | null {
  return openField(key, value, claimFieldContext(column, claimId));
}

export interface NewClaim extends ReportedClaim {
  id: string;
  claimant_id: string;
  access_token_hash: string;
  received_at: Date;
  acknowledge_by: Date;
  acknowledged_at: Date | null;
  first_contact_due: Date;
  next_update_due: Date | null;
}

export interface ClaimAuditEntry {
  claim_id: string;
  action: string;
  actor: string;
  reason?: string | null;
  data?: Record<string, unknown>;
}

interface ClaimAuditRow {
  id: string;
  action: string;
  actor: string;
  reason: string | null;
  data: Record<string, unknown>;
  occurred_at: Date;
}

export interface ClaimAuditRecord {
  audit_id: string;
  action: string;
  actor: string;
  reason: string | null;
  data: Record<string, unknown>;
  occurred_at: string;
}

export function claimStore(db: Knex) {
  return {
    /** Seals the claim's personal columns still in plain text (filed before 0024, or while encryption was off). */
    async sealPlainFields(claimId: string, key: Buffer): Promise<void> {
      const row = await db('claims').where({ id: claimId }).first(SEALED_COLUMNS);
      const sealed = sealPlainColumns(key, row, SEALED_COLUMNS, (column) => claimFieldContext(column, claimId));
      if (Object.keys(sealed).length > 0) await db('claims').where({ id: claimId }).update(sealed);
    },

    /** A claim by id, or undefined (also for an id that is not a UUID). `forUpdate` locks the row. */
    async find(claimId: string, options: { forUpdate?: boolean } = {}): Promise<ClaimWithTokenHash | undefined> {
      if (!UUID_PATTERN.test(claimId)) return undefined;
      let query = db('claims').select(db.raw(CLAIM_COLUMNS)).where('claims.id', claimId);
      if (options.forUpdate) query = query.forUpdate();
      const row = (await query.first()) as ClaimRow | undefined;
      return row ? toClaim(row) : undefined;
    },

    /** The next number of `year`, allocated on the caller's transaction: CLM-YYYY-NNNNNN, ordered per year. */
    async allocateClaimNumber(year: number): Promise<string> {
      const { rows } = await db.raw<{ rows: { last_value: number }[] }>(
        `INSERT INTO claim_number_counters (year, last_value) VALUES (?, 1)
         ON CONFLICT (year) DO UPDATE SET last_value = claim_number_counters.last_value + 1
         RETURNING last_value`,
        [year],
      );
      return `CLM-${year}-${String(rows[0].last_value).padStart(6, '0')}`;
    },

    /**
     * A new claim's insert, its personal fields sealed with the claimant's data key `key` (null: plain text) now and
     * the statement made once the claim number is known: intake seals before it takes the claim-number counter,
     * whose row stays locked until commit, and passes the insert to `writeTogether` with the claim's first records.
     */
    prepareInsert(claim: Omit<NewClaim, 'claim_number'>, key: Buffer | null): (claimNumber: string) => PendingWrite {
      const sealed = sealedColumns(claim.id, claim, key);
      return (claimNumber) =>
        db('claims').insert({
          id: claim.id,
          claim_number: claimNumber,
          policy_number: claim.policy_number,
          claimant_id: claim.claimant_id,
          ...sealed,
          loss_date: claim.loss.date,
          loss_type: claim.loss.type,
          loss_location: claim.loss.location === null ? null : JSON.stringify(claim.loss.location),
          injuries: claim.injuries,
          estimated_amount: claim.estimated_amount?.amount ?? null,
          estimated_currency: claim.estimated_amount?.currency ?? null,
          preferred_channel: claim.preferred_channel,
          language: claim.language,
          time_zone: claim.time_zone,
          stage: 'intake',
          access_token_hash: claim.access_token_hash,
          required_documents: JSON.stringify(claim.required_documents),
          received_at: claim.received_at,
          acknowledge_by: claim.acknowledge_by,
          acknowledged_at: claim.acknowledged_at,
          first_contact_due: claim.first_contact_due,
          next_update_due: claim.next_update_due,
          created_at: claim.received_at,
          updated_at: claim.received_at,
        });
    },

    /** Replaces the checklist (e.g. after marking items received) and touches `updated_at`. */
    async updateRequiredDocuments(claimId: string, documents: RequiredDocument[]): Promise<void> {
      await db('claims')
        .where({ id: claimId })
        .update({ required_documents: JSON.stringify(documents), updated_at: db.raw('clock_timestamp()') });
    },

    /** Appends to the claim's internal timeline when awaited, or as one of `writeTogether`'s writes (append-only: the database refuses changes). */
    appendAudit(entry: ClaimAuditEntry): PendingWrite {
      return db('claim_audit').insert({
        id: randomUUID(),
        claim_id: entry.claim_id,
        action: entry.action,
        actor: entry.actor,
        reason: entry.reason ?? null,
        data: JSON.stringify(entry.data ?? {}),
      });
    },

    /**
     * The claim's internal timeline, oldest first. A reopening's entry names the stage and who; the reason the
     * claimant was told is added from `claim_reopenings`, opened with their data `key` ("Erased" once it is gone).
     */
    async listAudit(claimId: string, key: Buffer | null): Promise<ClaimAuditRecord[]> {
      const rows: (ClaimAuditRow & { reopening_reason: string | null; reopening_update_id: string | null })[] = await db('claim_audit as a')
        .leftJoin('claim_reopenings as r', function joinReopening() {
          this.on(db.raw("r.update_id::text = a.data->>'update_id'")).andOn(db.raw("a.data->>'transition' = 'reopen'"));
        })
        .where('a.claim_id', claimId)
        .orderBy([{ column: 'a.occurred_at' }, { column: 'a.id' }])
        .select('a.*', 'r.reason as reopening_reason', 'r.update_id as reopening_update_id');
      return rows.map((row) => ({
        audit_id: row.id,
        action: row.action,
        actor: row.actor,
        reason:
          row.reopening_update_id === null
            ? row.reason
            : `${row.reason}: ${openField(key, row.reopening_reason, reopeningReasonContext(row.reopening_update_id)) ?? ERASED_TEXT}`,
        data: row.data,
        occurred_at: new Date(row.occurred_at).toISOString(),
      }));
    },

    /** Changes the claim's stage, queue, promised update or closing, and touches `updated_at`. */
    async updateState(
      claimId: string,
      changes: Partial<{
        stage: ClaimStage;
        queue: string;
        next_update_due: Date | null;
        closing_reason: ClosingReason | null;
        closing_rationale: string | null;
      }>,
    ): Promise<void> {
      await db('claims')
        .where({ id: claimId })
        .update({ ...changes, updated_at: db.raw('clock_timestamp()') });
    },
  };
}

export type ClaimStore = ReturnType<typeof claimStore>;
