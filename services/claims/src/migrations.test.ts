import path from 'node:path';
import type { Knex } from '@platform/db';
import { messagingMigrations } from '@platform/messaging';
import { SCAN_STATUSES } from '@platform/files';
import { checkedValues, openTestDatabase, releasedMigrationProblems } from '@platform/testing';
import { DELIVERY_KINDS } from './features/delivery/delivery-store';
import { COST_CATEGORIES, PAYEE_KINDS, PAYMENT_METHODS, PAYMENT_STATUSES } from './features/financials/financials-schemas';
import { ACTIVITY_KINDS, ACTIVITY_PRIORITIES } from './features/diary/diary-schemas';
import { ACCESS_KINDS } from './features/access-log';
import { DEFAULT_TRIAGE_POLICY, QUEUES } from './features/triage-policy';
import { claimsMigrations } from './migrations';
import { DEADLINES } from './shared/claim-deadlines';
import { CHANNELS, CLAIM_STAGES, CLOSING_REASONS, LOSS_TYPES } from './shared/claim-vocabulary';

describe('claims migrations', () => {
  it('are exactly as released (a new one is added to migration-checksums.json, a released one never edited)', () => {
    expect(releasedMigrationProblems(claimsMigrations, path.join(__dirname, 'migration-checksums.json'))).toEqual([]);
  });

  describe('on a migrated database', () => {
    let db: Knex;
    let cleanup: () => Promise<void>;

    beforeAll(async () => {
      ({ db, cleanup } = await openTestDatabase('claims', [...messagingMigrations, ...claimsMigrations]));
    });
    afterAll(async () => {
      await cleanup?.();
    });

    // A value added to a list in code needs a migration widening the constraint, or writes fail with a 500
    it.each([
      ['claims', 'loss_type', LOSS_TYPES],
      ['claims', 'preferred_channel', CHANNELS],
      ['claims', 'stage', CLAIM_STAGES],
      ['status_updates', 'channel', CHANNELS],
      ['status_updates', 'stage', CLAIM_STAGES],
      ['deliveries', 'channel', CHANNELS],
      ['deliveries', 'kind', DELIVERY_KINDS],
      ['triage_runs', 'queue', QUEUES],
      ['escalations', 'proposed_queue', QUEUES],
      ['escalations', 'queue', QUEUES],
      ['attachments', 'scan_status', SCAN_STATUSES],
      ['deadline_breaches', 'deadline', DEADLINES],
      ['claims', 'closing_reason', CLOSING_REASONS],
      ['status_updates', 'closing_reason', CLOSING_REASONS],
      ['reserve_changes', 'cost_category', COST_CATEGORIES],
      ['payments', 'cost_category', COST_CATEGORIES],
      ['payments', 'status', PAYMENT_STATUSES],
      ['payments', 'method', PAYMENT_METHODS],
      ['payments', 'payee_kind', PAYEE_KINDS],
      ['claim_activities', 'kind', ACTIVITY_KINDS],
      ['claim_activities', 'priority', ACTIVITY_PRIORITIES],
      ['claim_access_log', 'kind', ACCESS_KINDS],
    ])('%s.%s accepts exactly the values the code uses', async (table, column, values) => {
      expect((await checkedValues(db, table, column)).sort()).toEqual([...values].sort());
    });

    it('installed the default triage policy the code knows', async () => {
      const row = await db('triage_policies')
        .where({ version: DEFAULT_TRIAGE_POLICY.version })
        .first('version', 'description', 'parameters', 'score_bands', 'rules', 'active');
      expect(row).toEqual({ ...DEFAULT_TRIAGE_POLICY, active: true });
    });
  });
});
