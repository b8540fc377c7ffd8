import type { Migration } from '@platform/db';

/** In order; a merged migration is never edited, only followed by a new one. */
export const evidenceMigrations: Migration[] = [];
