import type { Migration } from '@platform/db';
import { auditLogMigration } from './features/audit/audit-migration';
import { binderPartsMigration, bindersMigration } from './features/binders/migration';
import { controlsMigration } from './features/controls/migration';
import { evidenceMigration } from './features/evidence/migration';
import { evidenceFileScansMigration } from './features/evidence/scan-migration';
import { runsMigration } from './features/runs/migration';

/** In order; a merged migration is never edited, only followed by a new one. */
export const evidenceMigrations: Migration[] = [
  auditLogMigration,
  controlsMigration,
  runsMigration,
  evidenceMigration,
  bindersMigration,
  binderPartsMigration,
  evidenceFileScansMigration,
];
