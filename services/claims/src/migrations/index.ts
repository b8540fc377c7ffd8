import type { Migration } from '@platform/db';
import { claimsCoreMigration } from './0001_claims_core';
import { triageMigration } from './0002_claims_triage';
import { deliveriesMigration } from './0003_claims_deliveries';
import { overdueMigration } from './0004_claims_overdue_announcements';
import { adjusterKitsMigration } from './0005_claims_adjuster_kits';
import { attachmentScansMigration } from './0006_claims_attachment_scans';
import { assignmentSearchMigration } from './0007_claims_assignment_search';
import { deadlinesDeliveriesMigration } from './0008_claims_deadlines_deliveries';
import { claimantSelfServiceMigration } from './0009_claims_claimant_self_service';
import { claimsWitnessMigration } from './0010_claims_witness';
import { searchIndexesMigration } from './0011_claims_search_indexes';
import { searchKnnMigration } from './0012_claims_search_knn';
import { claimantNamesMigration } from './0013_claims_claimant_names';
import { deadlinesMetMigration } from './0014_claims_deadlines_met';
import { deliveriesVacuumMigration } from './0015_claims_deliveries_vacuum';
import { claimVersionVisibleChangesMigration } from './0016_claims_version_visible_changes';
import { attachmentPlacementsMigration } from './0017_claims_file_placements';
import { adjustersMigration } from './0018_claims_adjusters';
import { financialsMigration } from './0019_claims_financials';
import { notesMigration } from './0020_claims_notes';
import { diaryMigration } from './0021_claims_activities';
import { contactsMigration } from './0022_claims_contacts';
import { reopeningsMigration } from './0023_claims_reopenings';
import { claimantsMigration } from './0024_claims_claimants';
import { keyedNameIndexMigration } from './0025_claims_keyed_name_index';
import { retentionErasureMigration } from './0026_claims_retention_erasure';
import { accessLogExportsMigration } from './0027_claims_access_log_exports';
import { dropContactIndexesMigration } from './0028_claims_drop_contact_indexes';
import { claimantUniqueContactsMigration } from './0029_claims_claimant_unique_contacts';
import { encryptedFilesMigration } from './0030_claims_encrypted_files';
import { reopeningReasonOutOfTimelineMigration } from './0031_claims_reopening_reason_out_of_timeline';

/** In order; a released migration is never edited, only followed by a new one (migrations.test.ts holds them to their checksums). */
export const claimsMigrations: Migration[] = [
  claimsCoreMigration,
  // claims workflow: triage and escalations, delivery queue, overdue announcements, adjuster kits
  triageMigration,
  deliveriesMigration,
  overdueMigration,
  adjusterKitsMigration,
  attachmentScansMigration,
  assignmentSearchMigration,
  deadlinesDeliveriesMigration,
  claimantSelfServiceMigration,
  claimsWitnessMigration,
  searchIndexesMigration,
  searchKnnMigration,
  claimantNamesMigration,
  deadlinesMetMigration,
  deliveriesVacuumMigration,
  claimVersionVisibleChangesMigration,
  attachmentPlacementsMigration,
  adjustersMigration,
  financialsMigration,
  notesMigration,
  diaryMigration,
  contactsMigration,
  reopeningsMigration,
  claimantsMigration,
  keyedNameIndexMigration,
  retentionErasureMigration,
  accessLogExportsMigration,
  dropContactIndexesMigration,
  claimantUniqueContactsMigration,
  encryptedFilesMigration,
  reopeningReasonOutOfTimelineMigration,
];
