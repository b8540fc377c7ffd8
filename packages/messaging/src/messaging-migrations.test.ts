import path from 'node:path';
import { releasedMigrationProblems } from '@platform/testing';
import { messagingMigrations } from './outbox';

it('the outbox and inbox migrations are exactly as released (a new one is added to migration-checksums.json, a released one never edited)', () => {
  expect(releasedMigrationProblems(messagingMigrations, path.join(__dirname, 'migration-checksums.json'))).toEqual([]);
});
