import type { Migration } from '@platform/db';
import { auditLogMigration } from './features/audit/audit-migration';

/** In order; a merged migration is never edited, only followed by a new one. */
export const evidenceMigrations: Migration[] = [
  auditLogMigration,
];
