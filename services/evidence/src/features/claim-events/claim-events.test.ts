import { randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import request from 'supertest';
import { eventSchemaId } from '@platform/messaging';
import { bearer, eventually, peekQueue, testAmqpUrl } from '@platform/testing';
import { startAuditTestService, type AuditTestService } from '../../testing/audit-test-service';

/** A claim event as the claims service publishes it, `dataschema` included (the consumer accepts it). */
function claimEvent(type: string, data: Record<string, unknown>, overrides: Record<string, unknown> = {}) {
  const envelope = {
    specversion: '1.0',
    id: randomUUID(),
    source: '/claims',
    type,
    time: '2026-11-22T10:00:00.123456Z',
    datacontenttype: 'application/json',
  };
  return { ...envelope, dataschema: eventSchemaId(type, 1), data, ...overrides };
}

/** Publishes raw bytes to the claims exchange the way the claims service's relay does. */
async function publish(exchange: string, routingKey: string, body: string | object, messageId?: string) {
  const connection = await amqp.connect(testAmqpUrl());
  try {
    const channel = await connection.createConfirmChannel();
    await channel.assertExchange(exchange, 'topic', { durable: true });
    const content = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    channel.publish(exchange, routingKey, content, { persistent: true, contentType: 'application/cloudevents+json', messageId });
    await channel.waitForConfirms();
  } finally {
    await connection.close();
  }
}

/** The dead-lettered copy of one message (the DLQ is read without consuming, so it holds earlier ones too). */
function deadLettered(queue: string, contains: string) {
  return eventually(async () => (await peekQueue(queue)).find((message) => message.content.includes(contains)));
}

async function records(kit: AuditTestService, query: Record<string, string> = {}) {
  const response = await request(kit.service.url)
    .get('/api/evidence/audit/records')
    .query({ source: 'claims', limit: 500, ...query })
    .set('Authorization', await bearer('audit:read'))
    .expect(200);
  return response.body.items;
}

async function metric(kit: AuditTestService, name: string): Promise<number> {
  const text = (await request(kit.service.url).get('/metrics').expect(200)).text;
  const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : NaN;
}

describe('claim-event consumer', () => {
  let kit: AuditTestService;
  let exchange: string;
  let dlq: string;

  beforeAll(async () => {
    kit = await startAuditTestService({ CONSUMER_MAX_ATTEMPTS: '2' });
    exchange = kit.config.CLAIMS_EXCHANGE;
    dlq = `${kit.config.CLAIM_EVENTS_QUEUE}.dlq`;
  });
  afterAll(async () => {
    await kit?.stop();
  });

  it("reports its queue's depth (messages waiting) on /metrics", async () => {
    const text = (await request(kit.service.url).get('/metrics').expect(200)).text;
    expect(text).toMatch(
      new RegExp(
        `^messaging_queue_depth\\{queue="${kit.config.CLAIM_EVENTS_QUEUE.replace(/\./g, '\\.')}",service="evidence"\\} \\d+$`,
        'm',
      ),
    );
  });

  it('dead-letters a message that is not JSON, without retrying it or recording anything', async () => {
    await publish(exchange, 'claim.created', '{not json', 'm-not-json');
    const dead = await deadLettered(dlq, '{not json');
    expect(dead.content).toBe('{not json');
    expect(dead.headers['x-attempts']).toBe(1);
    expect(String(dead.headers['x-last-error'])).toMatch(/^poison/);
    expect(await records(kit)).toEqual([]);
  });

  it.each([
    ['without a claim_id', claimEvent('claim.triaged', { queue: 'standard' }), /poison: .*claim_id/],
    ['with a claim_id that is not a string', claimEvent('claim.triaged', { claim_id: 42 }), /poison: .*claim_id/],
    [
      'with a time that is not a timestamp',
      claimEvent('claim.created', { claim_id: randomUUID() }, { time: 'yesterday' }),
      /poison: .*time/,
    ],
    [
      'that is not a CloudEvent',
      { id: randomUUID(), type: 'claim.created', data: { claim_id: randomUUID() } },
      /poison: not a CloudEvents/,
    ],
  ])('dead-letters a claim event %s as poison, at once and without a record', async (_what, event, reason) => {
    await publish(exchange, String(event.type), event, String(event.id));
    const dead = await deadLettered(dlq, String(event.id));
    expect(JSON.parse(dead.content).id).toBe(event.id);
    expect(String(dead.headers['x-last-error'])).toMatch(reason);
    expect(dead.headers['x-attempts']).toBe(1);
    expect(await records(kit)).toEqual([]);
  });

  it('retries a handler failure, then dead-letters it after CONSUMER_MAX_ATTEMPTS', async () => {
    // PostgreSQL cannot store \u0000 in jsonb: the effect fails every time, though the event is well formed.
    const event = claimEvent('claim.status_updated', { claim_id: randomUUID(), note: 'nul \u0000 byte' });
    await publish(exchange, event.type, event, event.id);
    const dead = await deadLettered(dlq, event.id);
    expect(JSON.parse(dead.content).id).toBe(event.id);
    expect(dead.headers['x-attempts']).toBe(2);
    expect(String(dead.headers['x-last-error'])).not.toMatch(/^poison/);
    expect(await records(kit)).toEqual([]);
    expect(await metric(kit, 'evidence_claim_events_dead_lettered_total')).toBe(6);
  });

  it('records each claim event once, as the contract maps it', async () => {
    const claimId = randomUUID();
    const created = claimEvent('claim.created', { claim_id: claimId, claim_number: 'CLM-2026-000001', loss_type: 'auto_glass' });
    const triaged = claimEvent(
      'claim.triaged',
      { claim_id: claimId, queue: 'fast_track', actor: 'adjuster-7' },
      { time: '2026-11-22T11:00:00+01:00' },
    );
    await publish(exchange, created.type, created, created.id);
    await publish(exchange, triaged.type, triaged, triaged.id);
    const items = await eventually(async () => {
      const found = await records(kit, { entity_id: claimId });
      return found.length === 2 && found;
    });
    const byType = Object.fromEntries(items.map((item: { action: string }) => [item.action, item]));
    expect(byType['claim.created']).toMatchObject({
      source: 'claims',
      action: 'claim.created',
      entity_type: 'claim',
      entity_id: claimId,
      actor: '/claims',
      event_id: created.id,
      occurred_at: '2026-11-22T10:00:00.123Z',
      data: created.data,
    });
    expect(byType['claim.triaged']).toMatchObject({ actor: 'adjuster-7', event_id: triaged.id, occurred_at: '2026-11-22T10:00:00.000Z' });
    const verify = await request(kit.service.url)
      .get('/api/evidence/audit/verify')
      .set('Authorization', await bearer('audit:read'))
      .expect(200);
    expect(verify.body).toMatchObject({ valid: true, records_checked: 2 });
    expect(await metric(kit, 'evidence_claim_events_consumed_total')).toBe(2);
    expect(await metric(kit, 'evidence_claim_events_lag_seconds_count')).toBe(2);
    expect(await metric(kit, 'audit_chain_length')).toBe(2);
  });

  it('an event published twice, and redelivered after a restart, is recorded once', async () => {
    const event = claimEvent('claim.attachment_added', { claim_id: randomUUID(), attachment_id: randomUUID() });
    const duplicatesBefore = await metric(kit, 'evidence_claim_events_duplicates_total');
    await publish(exchange, event.type, event, event.id);
    await publish(exchange, event.type, event, event.id);
    await eventually(async () => (await metric(kit, 'evidence_claim_events_duplicates_total')) === duplicatesBefore + 1);
    await kit.restart();
    await publish(exchange, event.type, event, event.id);
    await eventually(async () => (await metric(kit, 'evidence_claim_events_duplicates_total')) === 1);
    expect(await records(kit, { entity_id: String(event.data.claim_id) })).toHaveLength(1);
    const rows = await kit.service.deps.db('inbox').where({ consumer: 'evidence.claim-events', event_id: event.id });
    expect(rows).toHaveLength(1);
  });

  it('only claim.# events reach the audit log', async () => {
    const other = claimEvent('policy.renewed', { claim_id: randomUUID() });
    await publish(exchange, other.type, other, other.id);
    const marker = claimEvent('claim.update_overdue', { claim_id: randomUUID() });
    await publish(exchange, marker.type, marker, marker.id);
    await eventually(async () => (await records(kit, { entity_id: String(marker.data.claim_id) })).length === 1);
    expect(await records(kit, { entity_id: String(other.data.claim_id) })).toEqual([]);
  });

  it('many events consumed concurrently still form one valid chain', async () => {
    const before = (await records(kit)).length;
    const events = Array.from({ length: 30 }, () => claimEvent('claim.status_updated', { claim_id: randomUUID() }));
    await Promise.all(events.map((event) => publish(exchange, event.type, event, event.id)));
    await eventually(async () => (await records(kit)).length === before + 30);
    const verify = await request(kit.service.url)
      .get('/api/evidence/audit/verify')
      .set('Authorization', await bearer('audit:read'))
      .expect(200);
    expect(verify.body).toMatchObject({ valid: true, first_invalid: null });
  });
});
