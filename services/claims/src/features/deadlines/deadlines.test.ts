import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { startClaimsTestService, type ClaimsTestService } from '../../testing/claims-test-service';
import { as, daysAhead, insertTestClaim, type TestClaimFields } from '../../testing/workflow-fixtures';
import { messagingMigrations } from '@platform/messaging';
import { migrate } from '@platform/db';
import { fnolBody, openTestDatabase } from '@platform/testing';
import { claimsMigrations } from '../../migrations';
import { DEADLINE_DUE_COLUMN, DEADLINES, openBreachCondition, startOfDayIn } from '../../shared/claim-deadlines';
import { sweepDeadlines } from './deadline-sweep';

const CADENCE_DAYS = 3;

/** A status update row as the system writes one (the intake's acknowledgement). */
function systemUpdate(claimId: string) {
  return {
    claim_id: claimId,
    channel: 'email',
    stage: 'intake',
    what_happened: 'We received your claim',
    what_happens_next: 'A claims specialist will contact you',
    language: 'en',
    adequacy_score: 0.9,
    created_by: 'system:intake',
  };
}
const past = (ms = 60_000) => new Date(Date.now() - ms);

function update(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    channel: 'portal',
    stage: 'inspection',
    what_happened: 'We booked the inspection',
    what_happens_next: 'The inspector visits your car',
    expected_next_update_by: null,
    language: 'en',
    ...overrides,
  };
}

describe('deadlines that hold', () => {
  let t: ClaimsTestService;

  beforeAll(async () => {
    t = await startClaimsTestService({ DEFAULT_UPDATE_CADENCE_DAYS: String(CADENCE_DAYS) });
  });
  afterAll(async () => {
    await t?.stop();
  });

  const newClaim = (fields: TestClaimFields = {}) => insertTestClaim(t.db, fields);
  const post = async (claimId: string, body: Record<string, unknown>) =>
    request(t.url)
      .post(`/api/claims/claims/${claimId}/status-updates`)
      .set('Authorization', await as.writer())
      .send(body);
  const dueOf = async (claimId: string) =>
    (await t.db('claims').where({ id: claimId }).first('next_update_due')).next_update_due as Date | null;
  const eventsOf = (type: string, claimId: string) =>
    t.events.received.filter((event) => event.routingKey === type && event.body.data.claim_id === claimId).map((event) => event.body.data);
  const breachEvents = (claimId: string) => eventsOf('claim.sla_breached', claimId);
  const listed = async (query: string) =>
    (
      await request(t.url)
        .get(`/api/claims/claims?${query}`)
        .set('Authorization', await as.reader())
        .expect(200)
    ).body.items.map((item: { claim_id: string }) => item.claim_id);

  it('keeps a promised next update when a status update names no date: the default cadence, never none (regression: it was cleared)', async () => {
    const claim = await newClaim({ stage: 'assigned' });
    expect((await post(claim.claim_id, update({ expected_next_update_by: daysAhead(1) }))).status).toBe(201);
    expect((await post(claim.claim_id, update({ stage: 'estimate' }))).status).toBe(201);
    expect((await dueOf(claim.claim_id))?.toISOString()).toBe(`${daysAhead(CADENCE_DAYS + 1)}T00:00:00.000Z`);
  });

  it("counts a promised date to the end of that day in the claim's time zone", async () => {
    const filed = await request(t.url)
      .post('/api/claims/public/claims')
      .send(fnolBody({ time_zone: 'Pacific/Auckland' }))
      .expect(201);
    await t.db('claims').where({ id: filed.body.claim_id }).update({ stage: 'triage' });
    const promised = daysAhead(10);
    expect((await post(filed.body.claim_id, update({ stage: 'assigned', expected_next_update_by: promised }))).status).toBe(201);
    expect((await dueOf(filed.body.claim_id))?.toISOString()).toBe(startOfDayIn(daysAhead(11), 'Pacific/Auckland').toISOString());
    const file = await request(t.url)
      .get(`/api/claims/claims/${filed.body.claim_id}`)
      .set('Authorization', await as.reader())
      .expect(200);
    expect(file.body.claim.time_zone).toBe('Pacific/Auckland');
  });

  it('refuses a time zone that is not an IANA name (400) and keeps nothing', async () => {
    const before = await t.db('claims').count({ n: '*' });
    const response = await request(t.url)
      .post('/api/claims/public/claims')
      .send(fnolBody({ time_zone: 'Mars/Olympus_Mons' }))
      .expect(400);
    expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(response.body.errors).toEqual([{ pointer: '/time_zone', message: 'must be an IANA time zone name' }]);
    expect(await t.db('claims').count({ n: '*' })).toEqual(before);
  });

  it('announces each broken deadline once (claim.sla_breached naming it), even with two sweeps at once', async () => {
    const unacknowledged = await newClaim({ stage: 'intake' });
    await t.db('claims').where({ id: unacknowledged.claim_id }).update({ acknowledge_by: past() });
    const uncontacted = await newClaim({ stage: 'triage' });
    await t.db('claims').where({ id: uncontacted.claim_id }).update({ first_contact_due: past() });
    const silent = await newClaim({ stage: 'assigned' });
    expect((await post(silent.claim_id, update())).status).toBe(201); // an adjuster's update: first contact made
    await t.db('claims').where({ id: silent.claim_id }).update({ next_update_due: past(), first_contact_due: past() });
    const closed = await newClaim({ stage: 'closed' });
    await t
      .db('claims')
      .where({ id: closed.claim_id })
      .update({ next_update_due: past(), first_contact_due: past(), acknowledge_by: past() });

    await Promise.all([sweepDeadlines(t.db, t.config.CLAIMS_EXCHANGE), sweepDeadlines(t.db, t.config.CLAIMS_EXCHANGE)]);
    expect(await sweepDeadlines(t.db, t.config.CLAIMS_EXCHANGE)).toBe(0);
    await t.events.waitFor(
      () =>
        breachEvents(silent.claim_id).length >= 1 &&
        breachEvents(uncontacted.claim_id).length >= 1 &&
        breachEvents(unacknowledged.claim_id).length >= 1,
    );

    expect(breachEvents(unacknowledged.claim_id)).toEqual([
      expect.objectContaining({ deadline: 'acknowledgement', stage: 'intake', actor: 'system:deadline-sweep' }),
    ]);
    expect(breachEvents(uncontacted.claim_id)).toEqual([expect.objectContaining({ deadline: 'first_contact', stage: 'triage' })]);
    expect(breachEvents(silent.claim_id)).toEqual([expect.objectContaining({ deadline: 'next_update', stage: 'inspection' })]);
    expect(breachEvents(closed.claim_id)).toEqual([]);
    // the contract's event for a broken promise, once, and only for it
    expect(eventsOf('claim.update_overdue', silent.claim_id)).toEqual([
      expect.objectContaining({ stage: 'inspection', actor: 'system:deadline-sweep' }),
    ]);
    expect([
      ...eventsOf('claim.update_overdue', uncontacted.claim_id),
      ...eventsOf('claim.update_overdue', unacknowledged.claim_id),
    ]).toEqual([]);
    const rows = await t
      .db('deadline_breaches')
      .whereIn('claim_id', [unacknowledged.claim_id, uncontacted.claim_id, silent.claim_id])
      .select('deadline');
    expect(rows.map((row: { deadline: string }) => row.deadline).sort()).toEqual(['acknowledgement', 'first_contact', 'next_update']);

    // a newer promise that breaks too is a new breach
    expect((await post(silent.claim_id, update({ stage: 'estimate', expected_next_update_by: daysAhead(1) }))).status).toBe(201);
    await t
      .db('claims')
      .where({ id: silent.claim_id })
      .update({ next_update_due: past(1000) });
    expect(await sweepDeadlines(t.db, t.config.CLAIMS_EXCHANGE)).toBe(1);
    await t.events.waitFor(
      () => breachEvents(silent.claim_id).length >= 2 && eventsOf('claim.update_overdue', silent.claim_id).length >= 2,
    );
  });

  it('stops between batches when asked, and the next sweep announces the rest once (a shutdown waits for one batch, not the backlog)', async () => {
    const overdue = [];
    for (let i = 0; i < 150; i++) overdue.push((await newClaim({ stage: 'intake' })).claim_id);
    await t.db('claims').whereIn('id', overdue).update({ acknowledge_by: past() });
    let batchesStarted = 0;
    expect(await sweepDeadlines(t.db, t.config.CLAIMS_EXCHANGE, () => batchesStarted++ > 0)).toBe(100);
    expect(await sweepDeadlines(t.db, t.config.CLAIMS_EXCHANGE)).toBeGreaterThanOrEqual(50);
    const rows = await t.db('deadline_breaches').whereIn('claim_id', overdue).select('claim_id', 'deadline');
    expect(rows).toHaveLength(150);
    expect(new Set(rows.map((row: { claim_id: string }) => row.claim_id)).size).toBe(150);
  });

  it('announces a due moment with microseconds once and keeps sweeping (regression: the sweep stalled on it)', async () => {
    const claim = await newClaim({ stage: 'assigned' });
    await t.db.raw(`UPDATE claims SET next_update_due = now() - interval '1 hour 0.000123 seconds' WHERE id = ?`, [claim.claim_id]);
    expect(await sweepDeadlines(t.db, t.config.CLAIMS_EXCHANGE)).toBeGreaterThanOrEqual(1);
    expect(await sweepDeadlines(t.db, t.config.CLAIMS_EXCHANGE)).toBe(0);
    const rows = await t.db('deadline_breaches').where({ claim_id: claim.claim_id, deadline: 'next_update' });
    expect(rows).toHaveLength(1);
  });

  it('lists open breaches by deadline (overdue=true&deadline=…) and counts them in a gauge', async () => {
    const uncontacted = await newClaim({ stage: 'triage' });
    await t.db('claims').where({ id: uncontacted.claim_id }).update({ first_contact_due: past() });
    const late = await newClaim({ stage: 'assigned' });
    await t.db('claims').where({ id: late.claim_id }).update({ next_update_due: past() });

    expect(await listed('overdue=true&deadline=first_contact')).toContain(uncontacted.claim_id);
    expect(await listed('overdue=true&deadline=first_contact')).not.toContain(late.claim_id);
    expect(await listed('overdue=true&deadline=next_update')).toContain(late.claim_id);
    expect(await listed('overdue=true&deadline=next_update')).not.toContain(uncontacted.claim_id);
    expect(await listed('overdue=true')).toEqual(expect.arrayContaining([late.claim_id, uncontacted.claim_id]));

    const gauge = async (deadline: string) => {
      const text = (await request(t.url).get('/metrics').expect(200)).text;
      return Number(new RegExp(`^claims_deadline_breaches_open\\{deadline="${deadline}"[^}]*\\} (\\d+)$`, 'm').exec(text)?.[1]);
    };
    const before = await gauge('first_contact');
    expect(before).toBeGreaterThanOrEqual(1);
    // the adjuster contacts the claimant: the breach is no longer open
    expect((await post(uncontacted.claim_id, update({ stage: 'assigned' }))).status).toBe(201);
    expect(await listed('overdue=true&deadline=first_contact')).not.toContain(uncontacted.claim_id);
    expect(await gauge('first_contact')).toBe(before - 1);
  });

  it('marks on the claim when its acknowledgement reached the claimant and an adjuster first made contact, and only then', async () => {
    const claim = await newClaim({ stage: 'assigned' });
    const marks = async () =>
      (await t.db('claims').where({ id: claim.claim_id }).first('acknowledgement_delivered_at', 'first_contact_made_at')) as Record<
        string,
        Date | null
      >;
    // an email update is queued, not delivered; written by the system, it is no contact
    const queued = await t.db.transaction(async (trx) => {
      const [row] = await trx('status_updates')
        .insert({ ...systemUpdate(claim.claim_id), update_id: randomUUID() })
        .returning('update_id');
      await trx('deliveries').insert({
        id: randomUUID(),
        update_id: row.update_id,
        claim_id: claim.claim_id,
        channel: 'email',
        status: 'pending',
      });
      return row.update_id as string;
    });
    expect(await marks()).toEqual({ acknowledgement_delivered_at: null, first_contact_made_at: null });
    await t.db('deliveries').where({ update_id: queued }).update({ status: 'failed', completed_at: t.db.fn.now() });
    expect((await marks()).acknowledgement_delivered_at).toBeNull();
    // a portal update by an adjuster: served at once, and first contact
    expect((await post(claim.claim_id, update())).status).toBe(201);
    const first = await marks();
    expect(first.acknowledgement_delivered_at).toBeInstanceOf(Date);
    expect(first.first_contact_made_at).toBeInstanceOf(Date);
    // the first time counts: a later update moves neither
    expect((await post(claim.claim_id, update({ stage: 'estimate' }))).status).toBe(201);
    expect(await marks()).toEqual(first);
  });

  it.each(DEADLINES)(
    'bounds the %s sweep by an index of the claims still unmet (regression: every open claim was read each pass)',
    async (deadline) => {
      const due = DEADLINE_DUE_COLUMN[deadline];
      const plan = await t.db.transaction(async (trx) => {
        await trx.raw('SET LOCAL enable_seqscan = off');
        const { rows } = await trx.raw(
          `EXPLAIN (FORMAT JSON) SELECT id FROM claims WHERE ${openBreachCondition(deadline)} ORDER BY ${due} LIMIT 100`,
        );
        return JSON.stringify(rows[0]['QUERY PLAN']);
      });
      expect(plan).toMatch(new RegExp(`"Index Cond":"\\(${due} <= statement_timestamp\\(\\)\\)"`));
      if (deadline !== 'next_update') expect(plan).toContain(`"Index Name":"claims_${deadline}_unmet_idx"`);
    },
  );

  it('sets the marks of the claims a database already holds when it migrates (migration 0014)', async () => {
    const before = claimsMigrations.findIndex((migration) => migration.name === '0014_claims_deadlines_met');
    const { db, cleanup } = await openTestDatabase('claims', [...messagingMigrations, ...claimsMigrations.slice(0, before)]);
    try {
      const contacted = await insertTestClaim(db, { stage: 'assigned' });
      const waiting = await insertTestClaim(db, { stage: 'intake' });
      const anHourAgo = past(3_600_000);
      const served = {
        ...systemUpdate(contacted.claim_id),
        update_id: randomUUID(),
        created_by: 'adjuster-7',
        created_at: anHourAgo,
      };
      const acknowledgement = { ...systemUpdate(waiting.claim_id), update_id: randomUUID() };
      await db('status_updates').insert([served, acknowledgement]);
      await db('deliveries').insert([
        {
          id: randomUUID(),
          update_id: served.update_id,
          claim_id: contacted.claim_id,
          channel: 'portal',
          status: 'delivered',
          completed_at: anHourAgo,
        },
        { id: randomUUID(), update_id: acknowledgement.update_id, claim_id: waiting.claim_id, channel: 'email', status: 'pending' },
      ]);
      await migrate(db, [...messagingMigrations, ...claimsMigrations]);
      const rows = await db('claims')
        .whereIn('id', [contacted.claim_id, waiting.claim_id])
        .select('id', 'acknowledgement_delivered_at', 'first_contact_made_at');
      const byId = Object.fromEntries(rows.map((row: { id: string }) => [row.id, row]));
      expect(byId[contacted.claim_id]).toEqual({
        id: contacted.claim_id,
        acknowledgement_delivered_at: served.created_at,
        first_contact_made_at: served.created_at,
      });
      expect(byId[waiting.claim_id]).toEqual({ id: waiting.claim_id, acknowledgement_delivered_at: null, first_contact_made_at: null });
    } finally {
      await cleanup();
    }
  });

  it('answers 422 for a deadline without overdue=true', async () => {
    const response = await request(t.url)
      .get('/api/claims/claims?deadline=first_contact')
      .set('Authorization', await as.reader())
      .expect(422);
    expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
  });

  it.each([
    ['an unknown deadline', 'overdue=true&deadline=lunch'],
    ['delivery_failed other than true', 'delivery_failed=false'],
  ])('answers 400 for %s', async (_what, query) => {
    const response = await request(t.url)
      .get(`/api/claims/claims?${query}`)
      .set('Authorization', await as.reader())
      .expect(400);
    expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
  });
});
