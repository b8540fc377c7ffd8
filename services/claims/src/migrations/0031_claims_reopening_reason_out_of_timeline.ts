import type { Migration } from '@platform/db';

/**
 * The reason a reopening tells the claimant lives only in `claim_reopenings.reason` (sealed with their data key,
 * blanked by erasure), no longer also as plain text in the append-only timeline, where erasure could not reach it.
 *
 * - A reopening recorded before 0023 had its reason only in its timeline entry: it gets its `claim_reopenings` row
 *   (plain; the `plain-field-sealing` task seals it).
 * - Every reopening's timeline entry keeps "Reopened into <stage> by <who>"; the timeline read adds the reason
 *   from `claim_reopenings`.
 *
 * The timeline is append-only; this one correction is made with its guard set aside inside the migration's
 * transaction, and the guard is back before it commits.
 */
export const reopeningReasonOutOfTimelineMigration: Migration = {
  name: '0031_claims_reopening_reason_out_of_timeline',
  sql: `
      CREATE TEMPORARY TABLE reopening_entries ON COMMIT DROP AS
        SELECT a.id, a.claim_id, a.actor, a.occurred_at, (a.data->>'update_id')::uuid AS update_id,
               'Reopened into ' || (a.data->>'stage') || ' by ' || a.actor AS stripped,
               a.reason
          FROM claim_audit a
         WHERE a.action = 'claim.status_updated' AND a.data->>'transition' = 'reopen'
           AND a.reason LIKE 'Reopened into % by %: %';

      INSERT INTO claim_reopenings (update_id, claim_id, closing_reason, stage, reason, reopened_by, reopened_at)
        SELECT e.update_id, e.claim_id, NULL, u.stage, substr(e.reason, char_length(e.stripped) + 3), e.actor, e.occurred_at
          FROM reopening_entries e
          JOIN status_updates u ON u.update_id = e.update_id
         WHERE e.reason LIKE e.stripped || ': %'
           AND char_length(e.reason) > char_length(e.stripped) + 2
        ON CONFLICT (update_id) DO NOTHING;

      ALTER TABLE claim_audit DISABLE TRIGGER claim_audit_no_update_delete;
      UPDATE claim_audit a SET reason = e.stripped
        FROM reopening_entries e
       WHERE a.id = e.id AND e.reason LIKE e.stripped || ': %';
      ALTER TABLE claim_audit ENABLE TRIGGER claim_audit_no_update_delete;
  `,
};
