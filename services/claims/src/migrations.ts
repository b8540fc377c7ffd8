import type { Migration } from '@platform/db';
import { adjusterKitsMigration } from './features/adjuster-kits/migrations';
import { adjustersMigration, assignmentSearchMigration, claimVersionVisibleChangesMigration } from './features/assignment/migrations';
import { claimantSelfServiceMigration } from './features/access-links/migrations';
import { attachmentPlacementsMigration, attachmentScansMigration } from './features/attachments/migrations';
import { claimantNamesMigration, searchIndexesMigration, searchKnnMigration } from './features/claims-list/migrations';
import { claimsCoreMigration } from './features/claims/migrations';
import { financialsMigration } from './features/financials/migrations';
import { notesMigration } from './features/notes/migrations';
import { contactsMigration } from './features/contacts/migrations';
import { diaryMigration } from './features/diary/migrations';
import { deliveriesMigration, deliveriesVacuumMigration } from './features/delivery/migrations';
import { deadlinesDeliveriesMigration, deadlinesMetMigration, overdueMigration } from './features/deadlines/migrations';
import { triageMigration } from './features/triage/migrations';
import { claimsWitnessMigration } from './features/witness/migrations';

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
];
