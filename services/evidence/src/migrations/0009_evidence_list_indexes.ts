import type { Migration } from '@platform/db';

/** The runs and binders lists read newest first by keyset (created_at, id): an index in that order, so a page reads its rows, not the table. */
export const listIndexesMigration: Migration = {
  name: '0009_evidence_list_indexes',
  sql: `
      CREATE INDEX evidence_runs_newest_idx ON evidence_runs (created_at DESC, run_id DESC);
      CREATE INDEX evidence_binders_newest_idx ON evidence_binders (created_at DESC, binder_id DESC);`,
};
