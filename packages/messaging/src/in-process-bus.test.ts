import { createLogger } from '@platform/http';
import { eventually } from '@platform/testing';
import { PoisonMessageError, createEvent, parseCloudEvent, topicMatches, type CloudEvent } from './cloud-event';
import { InProcessBus } from './in-process-bus';
import type { ConsumeOptions } from './transport';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const event = (type: string) => createEvent({ source: '/claims', type, subject: 'c-1', data: { claim_id: 'c-1' } });

describe('topicMatches', () => {
  it.each([
    ['claim.#', 'claim.created', true],
    ['claim.#', 'claim.status.changed', true],
    ['claim.#', 'claim', true],
    ['claim.#', 'claims.created', false],
    ['claim.#', 'evidence.created', false],
    ['#', 'anything.at.all', true],
    ['claim.*', 'claim.created', true],
    ['claim.*', 'claim.status.changed', false],
    ['claim.*', 'claim', false],
    ['*.created', 'claim.created', true],
    ['*.created', 'claim.status.created', false],
    ['claim.*.changed', 'claim.status.changed', true],
    ['claim.#.changed', 'claim.changed', true],
    ['claim.#.changed', 'claim.a.b.changed', true],
    ['claim.#.changed', 'claim.a.b.created', false],
    ['claim.created', 'claim.created', true],
    ['claim.created', 'claim.created.v2', false],
  ])('%s against %s is %s', (pattern, key, expected) => {
    expect(topicMatches(pattern, key)).toBe(expected);
  });
});

describe('parseCloudEvent', () => {
  it('reads a CloudEvent from its JSON', () => {
    const original = event('claim.created');
    expect(parseCloudEvent(Buffer.from(JSON.stringify(original)))).toEqual(original);
  });

  it.each([
    ['not JSON', 'this is not json'],
    ['JSON null', 'null'],
    ['an array', '[]'],
    ['another specversion', JSON.stringify({ ...event('a'), specversion: '0.3' })],
    ['no id', JSON.stringify({ ...event('a'), id: '' })],
    ['no type', JSON.stringify({ ...event('a'), type: undefined })],
    ['no data', JSON.stringify({ ...event('a'), data: null })],
  ])('calls %s poison', (_what, body) => {
    expect(() => parseCloudEvent(body)).toThrow(PoisonMessageError);
  });
});

describe('InProcessBus', () => {
  const bus = new InProcessBus(createLogger('bus-test'));
  afterAll(() => bus.close());

  function subscribe(options: Partial<ConsumeOptions> & Pick<ConsumeOptions, 'onMessage'>) {
    return bus.consume({ exchange: 'claims', queue: 'q', bindings: ['#'], prefetch: 1, maxAttempts: 3, ...options });
  }

  it('delivers by topic: claim.# and claim.* select what they match, on their exchange only', async () => {
    const hash: string[] = [];
    const star: string[] = [];
    const subs = [
      await subscribe({ bindings: ['claim.#'], onMessage: async (e) => void hash.push(e.type) }),
      await subscribe({ bindings: ['claim.*'], onMessage: async (e) => void star.push(e.type) }),
    ];
    for (const type of ['claim.created', 'claim.status.changed', 'evidence.created']) await bus.publish('claims', type, event(type));
    await bus.publish('evidence', 'claim.created', event('claim.created'));
    await eventually(async () => hash.length === 2 && star.length === 1);
    await sleep(50);
    expect(hash.sort()).toEqual(['claim.created', 'claim.status.changed']);
    expect(star).toEqual(['claim.created']);
    for (const sub of subs) await sub.stop();
  });

  it('delivers asynchronously, a copy of the event to each subscriber', async () => {
    const seen: CloudEvent[] = [];
    const subs = [
      await subscribe({
        onMessage: async (e) => {
          (e.data as Record<string, unknown>).mutated = true;
          seen.push(e);
        },
      }),
      await subscribe({ onMessage: async (e) => void seen.push(e) }),
    ];
    const original = event('claim.created');
    await bus.publish('claims', original.type, original);
    expect(seen).toEqual([]);
    await eventually(async () => seen.length === 2);
    expect((original.data as Record<string, unknown>).mutated).toBeUndefined();
    expect(seen.map((e) => e.id)).toEqual([original.id, original.id]);
    for (const sub of subs) await sub.stop();
  });

  it('retries a failing handler and succeeds without dead-lettering', async () => {
    let calls = 0;
    const sub = await subscribe({
      maxAttempts: 3,
      onMessage: async () => {
        calls += 1;
        if (calls < 3) throw new Error('transient');
      },
    });
    const before = bus.deadLetters.length;
    await bus.publish('claims', 'claim.created', event('claim.created'));
    await eventually(async () => calls === 3, 5000);
    await sleep(100);
    expect(calls).toBe(3);
    expect(bus.deadLetters.length).toBe(before);
    await sub.stop();
  });

  it('dead-letters an event after maxAttempts failures, with the reason', async () => {
    let calls = 0;
    const deadLettered: { reason: string; body: string }[] = [];
    const sub = await subscribe({
      queue: 'failing',
      maxAttempts: 3,
      onMessage: async () => {
        calls += 1;
        throw new Error('the effect failed');
      },
      onDeadLetter: (reason, body) => deadLettered.push({ reason, body: body.toString() }),
    });
    const failing = event('claim.created');
    await bus.publish('claims', failing.type, failing);
    await eventually(async () => deadLettered.length === 1, 5000);
    expect(calls).toBe(3);
    expect(deadLettered[0].reason).toBe('the effect failed');
    expect(JSON.parse(deadLettered[0].body).id).toBe(failing.id);
    expect(bus.deadLetters.find((d) => d.event.id === failing.id)).toMatchObject({ queue: 'failing', reason: 'the effect failed' });
    await sleep(500);
    expect(calls).toBe(3);
    await sub.stop();
  });

  it('dead-letters a poison event at once, as the AMQP consumer does', async () => {
    let calls = 0;
    const deadLettered: string[] = [];
    const sub = await subscribe({
      queue: 'poison',
      maxAttempts: 5,
      onMessage: async () => {
        calls += 1;
        throw new PoisonMessageError('claim_id is missing');
      },
      onDeadLetter: (reason) => deadLettered.push(reason),
    });
    const poison = event('claim.created');
    await bus.publish('claims', poison.type, poison);
    await eventually(async () => deadLettered.length === 1, 5000);
    await sleep(300);
    expect(calls).toBe(1);
    expect(deadLettered).toEqual(['claim_id is missing']);
    await sub.stop();
  });

  it('retries a handler whose database is unavailable without using up attempts', async () => {
    let calls = 0;
    const deadLettered: string[] = [];
    const sub = await subscribe({
      maxAttempts: 1,
      onMessage: async () => {
        calls += 1;
        if (calls <= 3) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      },
      onDeadLetter: (reason) => deadLettered.push(reason),
    });
    await bus.publish('claims', 'claim.created', event('claim.created'));
    await eventually(async () => calls === 4, 5000);
    expect(deadLettered).toEqual([]);
    await sub.stop();
  });

  it('stops delivering, and retrying, once a subscription stops', async () => {
    let calls = 0;
    const sub = await subscribe({
      onMessage: async () => {
        calls += 1;
        throw new Error('fails');
      },
    });
    await bus.publish('claims', 'claim.created', event('claim.created'));
    await eventually(async () => calls === 1);
    await sub.stop();
    await bus.publish('claims', 'claim.created', event('claim.created'));
    await sleep(700);
    expect(calls).toBe(1);
  });
});
