import path from 'node:path';
import type { Knex } from '@platform/db';
import { messagingMigrations } from '@platform/messaging';
import { SCAN_STATUSES } from '@platform/files';
import { checkedValues, openTestDatabase, releasedMigrationProblems } from '@platform/testing';
import { FREQUENCIES } from './features/controls/controls-schemas';
import { KINDS } from './features/evidence/evidence-schemas';
import { RUN_STATUSES } from './features/runs/runs-schemas';
import { evidenceMigrations } from './migrations';

describe('evidence migrations', () => {
  it('are exactly as released (a new one is added to migration-checksums.json, a released one never edited)', () => {
    expect(releasedMigrationProblems(evidenceMigrations, path.join(__dirname, 'migration-checksums.json'))).toEqual([]);
  });

  describe('on a migrated database', () => {
    let db: Knex;
    let cleanup: () => Promise<void>;

    beforeAll(async () => {
      ({ db, cleanup } = await openTestDatabase('evidence', [...messagingMigrations, ...evidenceMigrations]));
    });
    afterAll(async () => {
      await cleanup?.();
    });

    // A value added to a list in code needs a migration widening the constraint, or writes fail with a 500
    it.each([
      ['evidence_control_versions', 'frequency', FREQUENCIES],
      ['evidence_runs', 'status', RUN_STATUSES],
      ['evidence_items', 'kind', KINDS],
      ['evidence_file_scans', 'scan_status', SCAN_STATUSES],
    ])('%s.%s accepts exactly the values the code uses', async (table, column, values) => {
      expect((await checkedValues(db, table, column)).sort()).toEqual([...values].sort());
    });
  });
});
