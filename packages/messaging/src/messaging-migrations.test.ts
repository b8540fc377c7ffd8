import path from 'node:path';
import { openTestDatabase, releasedMigrationProblems, tableStorageOptions } from '@platform/testing';
import { messagingMigrations } from './outbox';

it('the outbox and inbox migrations are exactly as released (a new one is added to migration-checksums.json, a released one never edited)', () => {
  expect(releasedMigrationProblems(messagingMigrations, path.join(__dirname, 'migration-checksums.json'))).toEqual([]);
});

it('the outbox queue is vacuumed after each 1,000 dead rows, not at 20% of the table (PGlite: embedded.test.ts)', async () => {
  const { db, cleanup } = await openTestDatabase('outbox_vacuum', messagingMigrations);
  try {
    expect(await tableStorageOptions(db, 'outbox')).toEqual(
      expect.arrayContaining(['autovacuum_vacuum_scale_factor=0', 'autovacuum_vacuum_threshold=1000']),
    );
  } finally {
    await cleanup();
  }
});
