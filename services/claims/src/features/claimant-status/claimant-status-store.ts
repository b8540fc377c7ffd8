import { preparedStatement, type Knex } from '@platform/db';
import { cursorTimestampSql, type NewestFirstPosition } from '@platform/http';
import type { ScanStatus } from '@platform/files';
import { isoTimestampSql } from '../../shared/json-sql';
import { statusUpdateJsonSql } from '../../shared/status-update';
import type { ClaimantStatus } from './claimant-status-schemas';

type ClaimantAttachment = Omit<ClaimantStatus['attachments'][number], 'scan_notice'> & { scan_status: ScanStatus };

/** One read of the claimant's view: everything but the history's cursor and the attachments' scan notices. */
export interface ClaimantStatusRow {
  access_token_hash: string;
  /** Whose data key opens the status updates' texts (openUpdateTexts), once the token has opened the claim. */
  claimant_id: string;
  status: Omit<ClaimantStatus, 'attachments' | 'history' | 'contact_name'> & {
    /** The claim's assignee, or null while unassigned. */
    assignee: string | null;
    /** The claim's language (BCP 47), for the words the service puts in the view. */
    language: string;
    attachments: ClaimantAttachment[];
    history: { items: ClaimantStatus['history']['items'] };
  };
  /** Where the next (older) page starts; null on the last page. */
  next_position: NewestFirstPosition | null;
}

/**
 * The claim's claimant-safe projection, its files, its newest status update and one page of its history
 * (newest first, `limit` items after `after`) as JSON built by PostgreSQL in one statement: one round
 * trip, prepared once per connection. The token hash comes along for the caller's constant-time check.
 */
const readClaimantStatus = preparedStatement<ClaimantStatusRow>(
  'claimant_status_read',
  `
  WITH input AS (SELECT ?::uuid AS claim_id, ?::timestamptz AS after_at, ?::uuid AS after_id, ?::int AS page_size),
  page AS (
    SELECT s.*, row_number() OVER (ORDER BY s.created_at DESC, s.update_id DESC) AS n
    FROM status_updates s, input
    WHERE s.claim_id = input.claim_id
      AND (input.after_at IS NULL OR (s.created_at, s.update_id) < (input.after_at, input.after_id))
    ORDER BY s.created_at DESC, s.update_id DESC
    LIMIT (SELECT page_size + 1 FROM input)
  )
  SELECT c.access_token_hash, c.claimant_id,
    json_build_object(
      'claim_id', c.id, 'claim_number', c.claim_number, 'stage', c.stage, 'received_at', ${isoTimestampSql('c.received_at')},
      'assignee', c.assignee, 'language', c.language, 'required_documents', c.required_documents, 'closing_reason', c.closing_reason,
      -- every stage change's timeline entry names the stage it moved to; intake is where every claim starts
      'stages_passed', (
        SELECT coalesce(json_agg(passed.stage ORDER BY passed.first_at), '[]'::json)
        FROM (
          SELECT entered.stage, min(entered.at) AS first_at
          FROM (
            SELECT 'intake' AS stage, c.received_at AS at
            UNION ALL
            SELECT a.data->>'stage', a.occurred_at FROM claim_audit a WHERE a.claim_id = c.id AND a.data->>'stage' IS NOT NULL
          ) entered
          WHERE entered.stage <> c.stage
          GROUP BY entered.stage
        ) passed),
      'attachments', (
        SELECT coalesce(json_agg(json_build_object(
          'attachment_id', a.id, 'filename', a.filename, 'content_type', a.content_type, 'size_bytes', a.size_bytes,
          'document_type', a.document_type, 'received_at', ${isoTimestampSql('a.received_at')}, 'scan_status', a.scan_status
        ) ORDER BY a.received_at, a.id), '[]'::json)
        FROM attachments a WHERE a.claim_id = c.id),
      'latest_update', (
        SELECT ${statusUpdateJsonSql('s')} FROM status_updates s WHERE s.claim_id = c.id
        ORDER BY s.created_at DESC, s.update_id DESC LIMIT 1),
      'history', json_build_object('items', (
        SELECT coalesce(json_agg(json_build_object(
          'update_id', p.update_id, 'sent_at', ${isoTimestampSql('p.created_at')}, 'language_fallback_from', p.language_fallback_from,
          'update', ${statusUpdateJsonSql('p')}
        ) ORDER BY p.n), '[]'::json)
        FROM page p WHERE p.n <= input.page_size))
    ) AS status,
    (SELECT json_build_object('created_at', ${cursorTimestampSql('p.created_at')}, 'id', p.update_id)
     FROM page p WHERE p.n = input.page_size AND EXISTS (SELECT 1 FROM page WHERE n > input.page_size)) AS next_position
  FROM claims c, input
  WHERE c.id = input.claim_id`,
);

export function claimantStatusStore(db: Knex) {
  return {
    /** The claimant's view of a claim (`claimId` a UUID), or undefined when there is no such claim. */
    async read(claimId: string, after: NewestFirstPosition | undefined, limit: number): Promise<ClaimantStatusRow | undefined> {
      const [row] = await readClaimantStatus(db, [claimId, after?.created_at ?? null, after?.id ?? null, limit]);
      return row;
    },
  };
}
