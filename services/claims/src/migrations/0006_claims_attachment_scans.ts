import type { Migration } from '@platform/db';

/**
 * Virus scan status of each attachment. Rows stored before scanning existed were never scanned, hence
 * the default. `pending` rows (the scanner was down) are picked up by the background rescan.
 */
export const attachmentScansMigration: Migration = {
  name: '0006_claims_attachment_scans',
  sql: `
      ALTER TABLE attachments
        ADD COLUMN scan_status text NOT NULL DEFAULT 'not_scanned' CHECK (scan_status IN ('pending', 'clean', 'infected', 'not_scanned')),
        ADD COLUMN scan_signature text,
        ADD COLUMN scanned_at timestamptz;
      CREATE INDEX attachments_scan_pending_idx ON attachments (received_at, id) WHERE scan_status = 'pending';`,
};
