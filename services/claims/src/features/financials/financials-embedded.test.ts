import type { Knex } from '@platform/db';
import { messagingMigrations } from '@platform/messaging';
import { DATABASE_MODES, itPassesOnEmbeddedToo, openModeDatabase, type ModeDatabase } from '@platform/testing';
import { claimsMigrations } from '../../migrations';
import { insertTestClaim } from '../../testing/workflow-fixtures';
import { reconcilePlatformActivities } from '../diary';
import { parseAuthorityLimits } from './authority-limits';
import { financialsService, settleReservesOnClosing } from './financials-service';

const CASES = 4;
const limits = parseAuthorityLimits(['claims:write=5000', 'claims:decide=9999999999999999.99']);
const ann = { sub: 'adjuster-ann', scopes: new Set(['claims:read', 'claims:write']) };
const lead = (sub: string) => ({ sub, scopes: new Set(['claims:read', 'claims:decide']) });
const usd = (amount: string) => ({ amount, currency: 'USD' });

/** Reserves, payments and the closing rule on both databases the platform runs on (PGlite: in a child jest). */
describe.each(DATABASE_MODES)('reserves, payments and the diary on %s', (mode) => {
  let db: Knex;
  let database: ModeDatabase | undefined;

  beforeAll(async () => {
    database = await openModeDatabase(mode, 'claimsfinancials', [...messagingMigrations, ...claimsMigrations]);
    db = database.db;
  }, 120000);
  afterAll(() => database?.close());

  const inTransaction = <T>(work: (s: ReturnType<ReturnType<typeof financialsService>>, trx: Knex) => Promise<T>) =>
    db.transaction((trx) => work(financialsService('claims.events', limits)(trx), trx));
  const claim = async () => (await insertTestClaim(db, { stage: 'estimate' })).claim_id;

  it('keeps money exact at 99999999999999.99', async () => {
    const id = await claim();
    await inTransaction((s) =>
      s.setReserve(id, { cost_category: 'indemnity', amount: usd('99999999999999.99'), reason: 'Top' }, lead('lou')),
    );
    await inTransaction((s) => s.requestPayment(id, paymentOf('99999999999999.98'), lead('lou')));
    const figures = await inTransaction((s) => s.financials(id, ann));
    expect(figures.categories.indemnity).toMatchObject({ paid: usd('99999999999999.98'), outstanding: usd('0.01') });
  });

  it('refuses the requester approving their own payment in another case and with accents (403)', async () => {
    const id = await claim();
    await inTransaction((s) => s.setReserve(id, { cost_category: 'indemnity', amount: usd('9000'), reason: 'Estimate' }, ann));
    const payment = await inTransaction((s) => s.requestPayment(id, paymentOf('6000'), ann));
    expect(payment.status).toBe('awaiting_approval');
    for (const sub of ['ADJUSTER-ANN', 'adjustér-ann']) {
      await expect(
        inTransaction((s) => s.decide(id, payment.payment_id, { decision: 'approved', rationale: 'Mine' }, lead(sub))),
      ).rejects.toMatchObject({ status: 403 });
    }
    const decided = await inTransaction((s) => s.decide(id, payment.payment_id, { decision: 'approved', rationale: 'OK' }, lead('lead-2')));
    expect(decided.status).toBe('approved');
  });

  it('refuses closing as paid with nothing paid (409)', async () => {
    const id = await claim();
    await expect(db.transaction((trx) => settleReservesOnClosing(trx, 'claims.events', id, 'paid', 'lead-2'))).rejects.toMatchObject({
      status: 409,
    });
  });

  it('opens the platform activities of an assigned claim (the diary sweep)', async () => {
    const id = await claim();
    await db('claims')
      .where({ id })
      .update({ assignee: 'adjuster-ann', next_update_due: new Date(Date.now() + 86400_000) });
    await reconcilePlatformActivities(db, 'claims.events');
    const kinds = await db('claim_activities').where({ claim_id: id }).orderBy('kind').pluck('kind');
    expect(kinds).toEqual(['documents_requested', 'first_contact_due', 'promised_update_due']);
  });

  if (mode === 'postgres') itPassesOnEmbeddedToo(__filename, 'reserves, payments and the diary on embedded', CASES);
});

function paymentOf(amount: string) {
  return {
    cost_category: 'indemnity' as const,
    amount: usd(amount),
    payee: { name: 'Ana Ruiz', kind: 'claimant' as const },
    method: 'eft' as const,
    memo: 'Settlement',
  };
}
