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

/** Attachment files placed by transactions that may not commit, so a restart removes what they left (file-placements.ts). */
export const attachmentPlacementsMigration: Migration = {
  name: '0017_claims_file_placements',
  sql: `
      CREATE TABLE file_placements (
        id uuid PRIMARY KEY,
        sha256 text NOT NULL,
        announced_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX file_placements_announced_idx ON file_placements (announced_at);`,
};
