import type { Migration } from '@platform/db';
import { auditLogMigration } from './0001_audit_log';
import { controlsMigration } from './0002_evidence_controls';
import { runsMigration } from './0003_evidence_runs';
import { evidenceMigration } from './0004_evidence_items';
import { bindersMigration } from './0005_evidence_binders';
import { binderPartsMigration } from './0006_evidence_binder_parts';
import { evidenceFileScansMigration } from './0007_evidence_file_scans';
import { auditTreeMigration } from './0008_audit_tree';
import { listIndexesMigration } from './0009_evidence_list_indexes';
import { auditWitnessMigration } from './0010_audit_witness';
import { auditWatchMigration } from './0011_audit_watch';
import { evidencePlacementsMigration } from './0012_evidence_file_placements';
import { evidenceRedactionsMigration } from './0013_evidence_redactions';

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
  evidenceRedactionsMigration,
];
