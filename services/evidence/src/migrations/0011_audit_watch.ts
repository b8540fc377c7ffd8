import type { Migration } from '@platform/db';

/**
 * The background verifier's progress: the last tree head it verified (size and root), so each run checks
 * only what was appended since, and the break it raised, so a break is announced once. One row.
 */
export const auditWatchMigration: Migration = {
  name: '0011_audit_watch',
  sql: `
      CREATE TABLE audit_watch (
        id boolean PRIMARY KEY DEFAULT true CHECK (id),
        verified_size bigint NOT NULL DEFAULT 0 CHECK (verified_size >= 0),
        verified_root bytea,
        break_seq bigint,
        break_reason text,
        break_raised_at text
      );`,
};
