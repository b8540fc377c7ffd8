import type { Migration } from '@platform/db';

/** Evidence files placed by transactions that may not commit, so a restart removes what they left (file-placements.ts). */
export const evidencePlacementsMigration: Migration = {
  name: '0012_evidence_file_placements',
  sql: `
      CREATE TABLE file_placements (
        id uuid PRIMARY KEY,
        sha256 text NOT NULL,
        announced_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX file_placements_announced_idx ON file_placements (announced_at);`,
};
