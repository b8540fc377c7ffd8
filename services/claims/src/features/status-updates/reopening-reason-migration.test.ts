import { randomUUID } from 'node:crypto';
import { migrate } from '@platform/db';
import { messagingMigrations } from '@platform/messaging';
import { DATABASE_MODES, itPassesOnEmbeddedToo, openModeDatabase } from '@platform/testing';
import { claimsMigrations } from '../../migrations';
import { claimStore } from '../../shared/claim-store';
import { insertTestClaim } from '../../testing/workflow-fixtures';

describe.each(DATABASE_MODES)('reopening reasons taken out of the timeline (migration 0031) on %s', (mode) => {
  it('moves each reason into claim_reopenings (once), leaves the timeline "Reopened into <stage> by <who>", and the read still tells it', async () => {
    const before = claimsMigrations.findIndex((migration) => migration.name === '0031_claims_reopening_reason_out_of_timeline');
    const { db, close } = await openModeDatabase(mode, 'claimsreopenings', [...messagingMigrations, ...claimsMigrations.slice(0, before)]);
    try {
      const claim = await insertTestClaim(db, { stage: 'assigned' });
      const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
      const reopening = async (minute: number, stage: string, reason: string, withRow: boolean) => {
        const updateId = randomUUID();
        await db('status_updates').insert({
          update_id: updateId,
          claim_id: claim.claim_id,
          channel: 'email',
          stage,
          what_happened: reason,
          what_happens_next: 'We look again',
          adequacy_score: 0.5,
          created_at: at(minute),
          created_by: 'lead-bo',
        });
        if (withRow)
          await db('claim_reopenings').insert({
            update_id: updateId,
            claim_id: claim.claim_id,
            closing_reason: 'denied',
            stage,
            reason,
            reopened_by: 'lead-bo',
          });
        await db('claim_audit').insert({
          id: randomUUID(),
          claim_id: claim.claim_id,
          action: 'claim.status_updated',
          actor: 'lead-bo',
          reason: `Reopened into ${stage} by lead-bo: ${reason}`,
          data: JSON.stringify({ update_id: updateId, stage, transition: 'reopen' }),
          occurred_at: at(minute),
        });
        return updateId;
      };
      // one from before claim_reopenings (0023), one after; a reason may itself hold ": "
      const old = await reopening(1, 'estimate', 'Found the endorsement: we look again', false);
      const recent = await reopening(2, 'assigned', 'You sent the invoice', true);

      await migrate(db, [...messagingMigrations, ...claimsMigrations]);

      const timeline = await db('claim_audit')
        .where({ claim_id: claim.claim_id })
        .whereRaw("data->>'transition' = 'reopen'")
        .orderBy('occurred_at');
      expect(timeline.map((entry: { reason: string }) => entry.reason)).toEqual([
        'Reopened into estimate by lead-bo',
        'Reopened into assigned by lead-bo',
      ]);
      expect(
        await db('claim_reopenings')
          .where({ claim_id: claim.claim_id })
          .orderBy('reopened_at')
          .select('update_id', 'stage', 'reason', 'reopened_by'),
      ).toEqual([
        { update_id: old, stage: 'estimate', reason: 'Found the endorsement: we look again', reopened_by: 'lead-bo' },
        { update_id: recent, stage: 'assigned', reason: 'You sent the invoice', reopened_by: 'lead-bo' },
      ]);
      const read = await claimStore(db).listAudit(claim.claim_id, null);
      expect(read.filter((entry) => entry.data.transition === 'reopen').map((entry) => entry.reason)).toEqual([
        'Reopened into estimate by lead-bo: Found the endorsement: we look again',
        'Reopened into assigned by lead-bo: You sent the invoice',
      ]);
      // the timeline's guard is back
      await expect(db('claim_audit').where({ claim_id: claim.claim_id }).update({ reason: 'changed' })).rejects.toThrow(/append-only/);
    } finally {
      await close();
    }
  });

  if (mode === 'postgres') itPassesOnEmbeddedToo(__filename, 'migration 0031\\) on embedded', 1);
});
