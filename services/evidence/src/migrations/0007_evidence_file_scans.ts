import type { Migration } from '@platform/db';

/**
 * Virus scan status of file evidence. Evidence rows are append-only, so the status, which changes
 * (`pending` → `clean` or `infected`), lives beside them. Files stored before scanning existed were
 * never scanned.
 */
export const evidenceFileScansMigration: Migration = {
  name: '0007_evidence_file_scans',
  sql: `
      CREATE TABLE evidence_file_scans (
        evidence_id uuid PRIMARY KEY REFERENCES evidence_items (evidence_id),
        scan_status text NOT NULL CHECK (scan_status IN ('pending', 'clean', 'infected', 'not_scanned')),
        scan_signature text,
        scanned_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX evidence_file_scans_pending_idx ON evidence_file_scans (created_at, evidence_id) WHERE scan_status = 'pending';
      INSERT INTO evidence_file_scans (evidence_id, scan_status) SELECT evidence_id, 'not_scanned' FROM evidence_items WHERE kind = 'file';`,
};
