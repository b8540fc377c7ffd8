import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Parser } from '@asyncapi/parser';
import request from 'supertest';
import type { RunningServer } from '@platform/http';
import { claimsEventCatalog } from '@platform/claims/src/events';
import { evidenceEventCatalog } from '@platform/evidence/src/events';
import { startFakeUpstream, testGatewayConfig, type FakeUpstream } from './gateway-test-kit';
import { startGateway } from './gateway';

/** The event types CONTRACT.md §5 lists; any other a service publishes must be documented in docs/<service>.md. */
const CONTRACT_TYPES = [
  'claim.created',
  'claim.attachment_added',
  'claim.triaged',
  'claim.escalation_decided',
  'claim.status_updated',
  'claim.adjuster_kit_generated',
  'claim.update_overdue',
  'evidence.control_created',
  'evidence.run_created',
  'evidence.evidence_added',
  'evidence.run_decided',
  'evidence.binder_built',
  'evidence.audit_checkpoint',
];

describe('GET /asyncapi.json', () => {
  let claims: FakeUpstream;
  let evidence: FakeUpstream;
  let gateway: RunningServer;
  let document: any;

  beforeAll(async () => {
    claims = await startFakeUpstream();
    evidence = await startFakeUpstream();
    gateway = await startGateway(testGatewayConfig({ CLAIMS_URL: claims.url, EVIDENCE_URL: evidence.url }));
    // public like /openapi.json: no token
    document = (
      await request(gateway.url)
        .get('/asyncapi.json')
        .expect(200)
        .expect('Content-Type', /application\/json/)
    ).body;
  });
  afterAll(async () => {
    await gateway?.close();
    await claims?.close();
    await evidence?.close();
  });

  it('is a valid AsyncAPI 3.0 document: no errors, no warnings from @asyncapi/parser', async () => {
    expect(document.asyncapi).toBe('3.0.0');
    const { document: parsed, diagnostics } = await new Parser().parse(document);
    const problems = diagnostics
      .filter((diagnostic) => diagnostic.severity <= 1)
      .map((d) => `${d.code} at ${d.path.join('/')}: ${d.message}`);
    expect(problems).toEqual([]);
    expect(parsed).toBeDefined();
  });

  it('documents every event type, each on its routing key of its exchange, sent by its service', () => {
    const types = Object.values(document.channels).map((channel: any) => channel.address);
    expect(types.sort()).toEqual([...claimsEventCatalog.kinds, ...evidenceEventCatalog.kinds].map((kind) => kind.type).sort());
    for (const catalog of [claimsEventCatalog, evidenceEventCatalog]) {
      for (const kind of catalog.kinds) {
        const [name, channel] = Object.entries(document.channels).find(([, c]: [string, any]) => c.address === kind.type) as [string, any];
        expect(channel.bindings.amqp).toMatchObject({
          is: 'routingKey',
          exchange: { name: catalog.exchange, type: 'topic', durable: true },
        });
        expect(document.operations[`publish${name}`]).toMatchObject({ action: 'send', channel: { $ref: `#/channels/${name}` } });
        const message = document.components.messages[name];
        expect(message.contentType).toBe('application/cloudevents+json');
        expect(message.payload.properties).toMatchObject({
          type: { const: kind.type },
          source: { const: catalog.source },
          dataschema: { const: kind.schema.$id },
        });
        expect(message.payload.properties.data).toEqual({ $ref: `#/components/schemas/${name}Data` });
        expect(document.components.schemas[`${name}Data`]).toEqual(kind.schema);
      }
    }
  });

  it("holds every type of the contract, and each type beyond it is documented in its service's docs", () => {
    const types = Object.values(document.channels).map((channel: any) => channel.address);
    expect(types).toEqual(expect.arrayContaining(CONTRACT_TYPES));
    for (const catalog of [claimsEventCatalog, evidenceEventCatalog]) {
      const docs = readFileSync(path.join(__dirname, '..', '..', 'docs', `${catalog.service}.md`), 'utf8');
      const undocumented = catalog.kinds
        .map((kind) => kind.type)
        .filter((type) => !CONTRACT_TYPES.includes(type) && !docs.includes(`\`${type}\``));
      expect(undocumented).toEqual([]);
    }
  });

  it('names each data schema by a stable absolute URI and closes it to other properties', () => {
    for (const schema of Object.values(document.components.schemas) as any[]) {
      expect(schema.$id).toMatch(/^https:\/\/schemas\.claims-platform\.dev\/events\/[a-z_.]+\/v[0-9]+$/);
      expect(schema.additionalProperties).toBe(false);
    }
  });
});
