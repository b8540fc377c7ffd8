import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { principalOf } from '@platform/auth';
import { isSensitiveClaim } from '@platform/claims-domain';
import type { Knex } from '@platform/db';
import { cursorTimestampSql, decodeCursor, pageOf, problems, UUID_PATTERN } from '@platform/http';
import { createEvent, enqueueEvent } from '@platform/messaging';
import { CLAIMS_EVENT_SOURCE } from '../../shared/claim-change';
import { claimPersonalDataAccessed } from './access-log-events';
import { ACCESS_PURPOSE_MAX_LENGTH, type AccessKind, type AccessLogEntry, type AccessLogQuery } from './access-log-schemas';

/** The request header that carries why a reader opens a claim's personal data. */
export const ACCESS_PURPOSE_HEADER = 'Access-Purpose';

/** How routes that serve personal data document the header. */
export const accessPurposeParameter = {
  name: ACCESS_PURPOSE_HEADER,
  in: 'header' as const,
  schema: { type: 'string', maxLength: ACCESS_PURPOSE_MAX_LENGTH },
  description:
    'Why the caller reads this claim’s personal data (free text, at most 200 characters, recorded in the claim’s access log). ' +
    'Required when the claim is sensitive (an injury, or a triage fraud indicator; `GET /api/claims/claims/{id}/sensitivity` ' +
    'tells) and its claimant not erased: without it the read is 428 and nothing is served. Optional otherwise.',
};

/** The 428 of a route that serves personal data, for its `responses`. */
export const purposeRequiredResponse = {
  428: {
    description:
      'The claim is sensitive and no `Access-Purpose` was sent (problem type `precondition-required`, `header: "Access-Purpose"`): ' +
      'nothing was served or logged',
  },
};

export interface Reader {
  actor: string;
  purpose: string | null;
}

/** Who reads, and the purpose they gave (blank is none); a purpose over 200 characters is a 400 before anything is read. */
export function readerOf(req: Request): Reader {
  const purpose = req.get(ACCESS_PURPOSE_HEADER)?.trim() || null;
  if (purpose !== null && [...purpose].length > ACCESS_PURPOSE_MAX_LENGTH) {
    throw problems.badRequest(`${ACCESS_PURPOSE_HEADER} is longer than ${ACCESS_PURPOSE_MAX_LENGTH} characters`);
  }
  return { actor: principalOf(req).sub, purpose };
}

/** Every escalation gate any triage run raised on the claim, as a JSON array. */
const GATES_SQL = `(SELECT COALESCE(jsonb_agg(gate.value ->> 'gate'), '[]'::jsonb)
  FROM triage_runs, jsonb_array_elements(triage_runs.escalation_gates) AS gate WHERE triage_runs.claim_id = claims.id)`;

/** What the access rules need to know of a claim. */
export interface ClaimSensitivity {
  claim_id: string;
  claim_number: string;
  /** An injury, or a fraud indicator (`isSensitiveClaim`). */
  sensitive: boolean;
  /** Sensitive, and the claimant's personal data is still held (after erasure a tombstone is all there is to read). */
  purpose_required: boolean;
}

interface AccessRow {
  id: string;
  claim_id: string;
  actor: string;
  kind: AccessKind;
  purpose: string | null;
  sensitive: boolean;
  accessed_at: Date;
  position: string;
}

const entryOf = (row: AccessRow): AccessLogEntry => ({
  access_id: row.id,
  claim_id: row.claim_id,
  actor: row.actor,
  kind: row.kind,
  purpose: row.purpose,
  sensitive: row.sensitive,
  accessed_at: new Date(row.accessed_at).toISOString(),
});

export function accessLogStore(db: Knex) {
  /** Whether each of `claimIds` (those that exist) is sensitive and needs a purpose to be read. */
  async function sensitivityOf(claimIds: string[]): Promise<ClaimSensitivity[]> {
    const ids = claimIds.filter((id) => UUID_PATTERN.test(id));
    if (ids.length === 0) return [];
    const rows: { id: string; claim_number: string; injuries: boolean | null; erased: boolean; gates: string[] }[] = await db('claims')
      .whereIn('id', ids)
      .select('id', 'claim_number', 'injuries', db.raw('claimant_erased_at IS NOT NULL AS erased'), db.raw(`${GATES_SQL} AS gates`));
    return rows.map((row) => {
      const sensitive = isSensitiveClaim({ injuries: row.injuries, gates: row.gates });
      return { claim_id: row.id, claim_number: row.claim_number, sensitive, purpose_required: sensitive && !row.erased };
    });
  }

  /** Refuses (428) a reader who gave no purpose when one of `claimIds` needs it; returns what it learnt of them. */
  async function requirePurpose(reader: Reader, claimIds: string[]): Promise<ClaimSensitivity[]> {
    const claims = await sensitivityOf(claimIds);
    if (reader.purpose === null && claims.some((claim) => claim.purpose_required)) {
      throw problems.preconditionRequired(
        ACCESS_PURPOSE_HEADER,
        `This claim holds sensitive personal data (an injury or a fraud indicator): send an ${ACCESS_PURPOSE_HEADER} header saying why you read it`,
      );
    }
    return claims;
  }

  return {
    sensitivityOf,
    requirePurpose,

    /**
     * Records one read of `claimIds`' personal data: a log row per claim and its `claim.personal_data_accessed`
     * event, each row committed with its event. Called before the data is served, so nothing is served unlogged;
     * a sensitive claim read without a purpose is refused (428) before anything is logged.
     */
    async record(exchange: string, reader: Reader, kind: AccessKind, claimIds: string[]): Promise<void> {
      for (const claim of await requirePurpose(reader, claimIds)) {
        const accessId = randomUUID();
        const event = createEvent({
          source: CLAIMS_EVENT_SOURCE,
          type: claimPersonalDataAccessed.type,
          subject: claim.claim_id,
          dataschema: claimPersonalDataAccessed.schema.$id,
          data: {
            claim_id: claim.claim_id,
            actor: reader.actor,
            access_id: accessId,
            kind,
            purpose_given: reader.purpose !== null,
            sensitive: claim.sensitive,
          },
        });
        const logRow = db('claim_access_log').insert({
          id: accessId,
          claim_id: claim.claim_id,
          actor: reader.actor,
          kind,
          purpose: reader.purpose,
          sensitive: claim.sensitive,
        });
        await enqueueEvent(db, exchange, event, [logRow]);
      }
    },

    /** A claim's access log, newest first, cursor-paged. */
    async listOfClaim(claimId: string, query: AccessLogQuery) {
      const limit = query.limit ?? 25;
      const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
      const rows: AccessRow[] = await db('claim_access_log')
        .where({ claim_id: claimId })
        .modify((q) => {
          if (after) q.whereRaw('(accessed_at, id) < (?::timestamptz, ?::uuid)', [after.created_at, after.id]);
        })
        .orderBy([
          { column: 'accessed_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(limit + 1)
        .select('*', db.raw(`${cursorTimestampSql('accessed_at')} AS position`));
      return pageOf(rows, limit, entryOf, (row) => ({ created_at: row.position, id: row.id }));
    },
  };
}
