import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { principalOf } from '@platform/auth';
import type { Knex } from '@platform/db';
import { cursorTimestampSql, decodeCursor, pageOf, problems } from '@platform/http';
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
    'Optional: a read without it is served and logged as given no purpose.',
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

/** A claim read is sensitive when it involves an injury or triage raised a fraud gate on it. */
const SENSITIVE_SQL = `claims.injuries IS TRUE OR EXISTS (
  SELECT 1 FROM triage_runs WHERE triage_runs.claim_id = claims.id AND triage_runs.escalation_gates @> '[{"gate": "fraud_indicator"}]'::jsonb)`;

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
  return {
    /**
     * Records one read of `claimIds`' personal data: a log row per claim and its `claim.personal_data_accessed`
     * event, each row committed with its event. Called before the data is served, so nothing is served unlogged.
     */
    async record(exchange: string, reader: Reader, kind: AccessKind, claimIds: string[]): Promise<void> {
      if (claimIds.length === 0) return;
      const rows: { id: string; sensitive: boolean }[] = await db('claims')
        .whereIn('id', claimIds)
        .select('id', db.raw(`(${SENSITIVE_SQL}) AS sensitive`));
      for (const claim of rows) {
        const accessId = randomUUID();
        const event = createEvent({
          source: CLAIMS_EVENT_SOURCE,
          type: claimPersonalDataAccessed.type,
          subject: claim.id,
          dataschema: claimPersonalDataAccessed.schema.$id,
          data: {
            claim_id: claim.id,
            actor: reader.actor,
            access_id: accessId,
            kind,
            purpose_given: reader.purpose !== null,
            sensitive: claim.sensitive,
          },
        });
        const logRow = db('claim_access_log').insert({
          id: accessId,
          claim_id: claim.id,
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
