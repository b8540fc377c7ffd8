import type { Migration } from '@platform/db';

/**
 * An evidence file redacted by a superseding item: the original row stays (its hash is in the audit log and
 * in earlier binders), its bytes are destroyed. One redaction per item (the primary key), append-only like
 * the items themselves.
 */
export const evidenceRedactionsMigration: Migration = {
  name: '0013_evidence_redactions',
  sql: `
      CREATE TABLE evidence_redactions (
        evidence_id uuid PRIMARY KEY REFERENCES evidence_items (evidence_id),
        superseded_by uuid NOT NULL UNIQUE REFERENCES evidence_items (evidence_id),
        reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 1000),
        redacted_by text NOT NULL,
        redacted_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE TRIGGER evidence_redactions_no_update_delete BEFORE UPDATE OR DELETE ON evidence_redactions
        FOR EACH ROW EXECUTE FUNCTION refuse_change_evidence_items();
      CREATE TRIGGER evidence_redactions_no_truncate BEFORE TRUNCATE ON evidence_redactions
        FOR EACH STATEMENT EXECUTE FUNCTION refuse_change_evidence_items();`,
};
