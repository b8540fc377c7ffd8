import type { Migration } from '@platform/db';
import { claimsCoreMigration } from './features/claims/migrations';

/** In order; a merged migration is never edited, only followed by a new one. */
export const claimsMigrations: Migration[] = [
  claimsCoreMigration,
];
