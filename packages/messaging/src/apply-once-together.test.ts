import type { Knex } from '@platform/db';
import { openTestDatabase } from '@platform/testing';
import { createEvent, type CloudEvent } from './cloud-event';
import { applyOnceTogether, messagingMigrations } from './outbox';

function event(n: number): CloudEvent {
  return createEvent({ source: '/claims', type: 'claim.created', subject: `c-${n}`, data: { n } });
}

describe('applyOnceTogether (group commit of consumed events) on PostgreSQL', () => {
  let db: Knex;
  let cleanup: () => Promise<void>;
  let transactions = 0;

  beforeAll(async () => {
    ({ db, cleanup } = await openTestDatabase('group_commit', messagingMigrations));
    await db.raw('CREATE TABLE effects (event_id text NOT NULL, position serial)');
    db.on('query', (query: { sql: string }) => {
      if (/^BEGIN/i.test(query.sql)) transactions += 1;
    });
  });
  afterAll(async () => {
    await cleanup?.();
  });
  beforeEach(async () => {
    transactions = 0;
    await db('effects').del();
  });

  const effectsOf = async (events: CloudEvent[]) =>
    (
      await db('effects')
        .whereIn(
          'event_id',
          events.map((e) => e.id),
        )
        .orderBy('position')
    ).map((row) => row.event_id);

  it('commits events in flight together, in arrival order, each once, and tells each caller only after the commit', async () => {
    const apply = applyOnceTogether(db, 'together', async (e, trx) => {
      await trx('effects').insert({ event_id: e.id });
    });
    const events = Array.from({ length: 40 }, (_, n) => event(n));
    const outcomes = await Promise.all(events.map(async (e) => ({ applied: await apply(e), committed: (await effectsOf([e])).length })));
    expect(outcomes.every((outcome) => outcome.applied && outcome.committed === 1)).toBe(true);
    expect(await effectsOf(events)).toEqual(events.map((e) => e.id));
    expect(transactions).toBeGreaterThan(0);
    expect(transactions).toBeLessThan(events.length / 4);
    // redelivered, alone or together: applied nothing
    expect(await Promise.all(events.slice(0, 5).map(apply))).toEqual([false, false, false, false, false]);
    expect(await effectsOf(events)).toHaveLength(40);
  });

  it('a failing event fails alone: the rest of its group commits, and it can be retried', async () => {
    let failing = true;
    const poison = event(99);
    const apply = applyOnceTogether(db, 'together-failing', async (e, trx) => {
      if (e.id === poison.id && failing) throw new Error('cannot apply');
      await trx('effects').insert({ event_id: e.id });
    });
    const others = Array.from({ length: 9 }, (_, n) => event(n));
    const results = await Promise.allSettled([...others.slice(0, 4), poison, ...others.slice(4)].map(apply));
    expect(results.filter((result) => result.status === 'rejected')).toEqual([{ status: 'rejected', reason: new Error('cannot apply') }]);
    expect((await effectsOf(others)).sort()).toEqual(others.map((e) => e.id).sort());
    expect(await db('inbox').where({ consumer: 'together-failing', event_id: poison.id })).toEqual([]);
    failing = false;
    expect(await apply(poison)).toBe(true);
    expect(await effectsOf([poison])).toEqual([poison.id]);
  });
});
