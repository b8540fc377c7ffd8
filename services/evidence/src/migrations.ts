import type { Migration } from '@platform/db';
import { auditLogMigration, auditTreeMigration, auditWatchMigration, auditWitnessMigration } from './features/audit/migrations';
import { binderPartsMigration, bindersMigration } from './features/binders/migrations';
import { controlsMigration } from './features/controls/migrations';
import { evidenceFileScansMigration, evidenceMigration, evidencePlacementsMigration } from './features/evidence/migrations';
import { listIndexesMigration, runsMigration } from './features/runs/migrations';

/** In order; a released migration is never edited, only followed by a new one (migrations.test.ts holds them to their checksums). */
export const evidenceMigrations: Migration[] = [
  auditLogMigration,
  controlsMigration,
  runsMigration,
  evidenceMigration,
  bindersMigration,
  binderPartsMigration,
  evidenceFileScansMigration,
  auditTreeMigration,
  listIndexesMigration,
  auditWitnessMigration,
  auditWatchMigration,
  evidencePlacementsMigration,
];
