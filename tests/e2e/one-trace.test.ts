import path from 'node:path';
import { SpanKind, startTelemetry, type Telemetry } from '@platform/telemetry';
import { InMemorySpanExporter, instrumentJestModules, type ReadableSpan } from '@platform/telemetry/src/testing';
import { runService, type RunningService } from '@platform/runtime';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { bearer, deleteTopology, eventually, startStack, testServiceEnv, uniqueName, waitForConsumer, type Stack } from '@platform/testing';
import { startGateway } from '../../gateway/src/gateway';
import { testGatewayConfig } from '../../gateway/src/gateway-test-kit';
import { claimsMigrations } from '../../services/claims/src/migrations';
import { claimsService, readClaimsConfig } from '../../services/claims/src';
import { evidenceMigrations } from '../../services/evidence/src/migrations';
import { evidenceService, readEvidenceConfig } from '../../services/evidence/src';
import { newSigningKey } from '../../services/evidence/src/testing/audit-test-service';
import { auditRecordsOfClaim, ownPolicyFnol, reportLoss } from './fnol';
import { OTLP_KIND, startOtlpReceiver } from './otlp-receiver';

const ROOT = path.resolve(__dirname, '../..');

/** The spans of one trace by span id, and whether `span` descends from `ancestor` through recorded parents. */
function traceOf(spans: ReadableSpan[], traceId: string) {
  const inTrace = spans.filter((span) => span.spanContext().traceId === traceId);
  const byId = new Map(inTrace.map((span) => [span.spanContext().spanId, span]));
  const parentOf = (span: ReadableSpan) => byId.get(span.parentSpanContext?.spanId ?? '');
  const descends = (span: ReadableSpan, ancestor: ReadableSpan): boolean => {
    for (let parent = parentOf(span); parent; parent = parentOf(parent)) if (parent === ancestor) return true;
    return false;
  };
  return { spans: inTrace, parentOf, descends };
}

// Deployed shape only: the trace must cross RabbitMQ's message headers between processes, which the embedded
// start's in-process bus (one process, no broker) does not have.
describe('one claim intake is one trace, gateway to audit log', () => {
  const exporter = new InMemorySpanExporter();
  let telemetry: Telemetry;
  let claims: RunningService;
  let evidence: RunningService;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  const cleanups: (() => Promise<unknown>)[] = [];
  const names = {
    CLAIMS_EXCHANGE: uniqueName('trace.claims'),
    EVIDENCE_EXCHANGE: uniqueName('trace.evidence'),
    CLAIM_EVENTS_QUEUE: uniqueName('trace.claim-events'),
  };

  beforeAll(async () => {
    telemetry = startTelemetry('platform', { exporter })!;
    const dependents = ['packages/db', 'packages/http', 'packages/messaging', 'gateway'].map((dir) => path.join(ROOT, dir));
    instrumentJestModules(telemetry, dependents, require);
    const claimsEnv = await testServiceEnv('claims', claimsMigrations);
    const evidenceEnv = await testServiceEnv('evidence', evidenceMigrations);
    cleanups.push(claimsEnv.cleanup, evidenceEnv.cleanup);
    const claimsConfig = readClaimsConfig({ ...claimsEnv.env, ...names, OVERDUE_SWEEP_INTERVAL_MS: '3600000' });
    const evidenceConfig = readEvidenceConfig({ ...evidenceEnv.env, ...names, AUDIT_SIGNING_KEY: newSigningKey() });
    claims = await runService(claimsService(claimsConfig), claimsConfig);
    evidence = await runService(evidenceService(evidenceConfig), evidenceConfig);
    gateway = await startGateway(testGatewayConfig({ CLAIMS_URL: claims.url, EVIDENCE_URL: evidence.url }));
    // the evidence consumer declares and binds its (new, uniquely named) queue once its connection is up
    await waitForConsumer(names.CLAIM_EVENTS_QUEUE);
  }, 60000);

  afterAll(async () => {
    await gateway?.close();
    await Promise.all([claims?.close(), evidence?.close()]);
    for (const cleanup of cleanups) await cleanup();
    await deleteTopology([names.CLAIMS_EXCHANGE, names.EVIDENCE_EXCHANGE], [names.CLAIM_EVENTS_QUEUE, `${names.CLAIM_EVENTS_QUEUE}.dlq`]);
    await telemetry?.shutdown();
  });

  it('links the gateway, the claims service and its transaction, the relay, the broker, the consumer and the audit append', async () => {
    const claim = await reportLoss(gateway.url);
    const auditor = await bearer('audit:read', 'examiner');
    await eventually(async () => (await auditRecordsOfClaim(gateway.url, auditor, claim.claim_id)).length > 0, 15000);

    // The test's own request (supertest's http client span) is the root; the gateway serves it.
    const sent = exporter
      .getFinishedSpans()
      .find(
        (span) =>
          span.kind === SpanKind.CLIENT &&
          !span.parentSpanContext &&
          String(span.attributes['url.full']).endsWith('/api/claims/public/claims'),
      );
    expect(sent).toBeDefined();
    const consumerName = `${names.CLAIM_EVENTS_QUEUE} process`;
    const trace = await eventually(async () => {
      const found = traceOf(exporter.getFinishedSpans(), sent!.spanContext().traceId);
      return found.spans.some((span) => span.name === consumerName) && found;
    }, 10000);
    const { spans, parentOf, descends } = trace;

    // Every span but the test's request has its parent in the same trace.
    expect(spans.filter((span) => !parentOf(span))).toEqual([sent]);
    const gatewayServer = spans.find((span) => span.kind === SpanKind.SERVER && parentOf(span) === sent)!;
    expect(gatewayServer).toBeDefined();

    const claimsServer = spans.find(
      (span) => span.kind === SpanKind.SERVER && span !== gatewayServer && parentOf(span)?.kind === SpanKind.CLIENT,
    )!;
    expect(claimsServer).toBeDefined();
    expect(descends(claimsServer, gatewayServer)).toBe(true);

    const postgres = spans.filter((span) => span.attributes['db.system.name'] === 'postgresql');
    const claimStatements = postgres.filter((span) => descends(span, claimsServer)).map((span) => String(span.attributes['db.query.text']));
    expect(claimStatements).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^BEGIN/i),
        expect.stringMatching(/insert into "outbox"/i),
        expect.stringMatching(/^COMMIT/i),
      ]),
    );

    const publish = spans.find((span) => span.name === `${names.CLAIMS_EXCHANGE} publish`);
    expect(publish?.kind).toBe(SpanKind.PRODUCER);
    expect(descends(publish!, claimsServer)).toBe(true);
    // One producer and one consumer span per message: the platform's own (amqplib is not instrumented twice).
    expect(spans.filter((span) => span.kind === SpanKind.PRODUCER)).toEqual([publish]);

    const consumer = spans.find((span) => span.name === consumerName)!;
    expect(spans.filter((span) => span.kind === SpanKind.CONSUMER)).toEqual([consumer]);
    // The consumer continues the event's traceparent: the producer's span, as the relay's publish does.
    expect(parentOf(consumer)).toBe(parentOf(publish!));

    const append = spans.find((span) => span.name === 'audit.append');
    expect(append && parentOf(append)).toBe(consumer);
    expect(
      postgres.some((span) => descends(span, append!) && /insert into "audit_log"/i.test(String(span.attributes['db.query.text']))),
    ).toBe(true);
  });
});

describe('as deployed, the three processes export one trace over OTLP and log its ids', () => {
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let stack: Stack;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    stack = await startStack({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '200',
      BUILD_VERSION: '1.2.3-trace',
      LOG_LEVEL: 'info',
    });
  }, 120000);

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  it('joins gateway, claims and evidence in the trace the caller started; each request log line carries its trace and span ids', async () => {
    // The caller's own trace context: the gateway continues it, so the test knows the trace id.
    const traceId = randomBytes(16).toString('hex');
    const intake = await request(stack.gateway.url)
      .post('/api/claims/public/claims')
      .set('traceparent', `00-${traceId}-${randomBytes(8).toString('hex')}-01`)
      .send(ownPolicyFnol());
    expect(intake.status).toBe(201);

    const spans = await eventually(async () => {
      const inTrace = receiver.spans.filter((span) => span.traceId === traceId);
      return inTrace.some((span) => span.name === 'audit.append') && inTrace;
    }, 20000);
    expect([...receiver.contentTypes]).toEqual(['application/x-protobuf']);
    const serviceOf = (span: (typeof spans)[number]) => span.resource['service.name'];
    expect(new Set(spans.map(serviceOf))).toEqual(new Set(['gateway', 'claims', 'evidence']));
    for (const span of spans) {
      expect(span.resource).toMatchObject({ 'service.version': '1.2.3-trace', 'deployment.environment.name': 'test' });
    }

    const gatewayServer = spans.find((span) => serviceOf(span) === 'gateway' && span.kind === OTLP_KIND.server)!;
    expect(gatewayServer.attributes['http.route']).toBe('/api/claims/public/claims');
    expect(gatewayServer.name).toBe('POST /api/claims/public/claims');
    const claimsServer = spans.find((span) => serviceOf(span) === 'claims' && span.kind === OTLP_KIND.server)!;
    expect(claimsServer.attributes['http.route']).toBeDefined();
    // One producer and one consumer span for the event, no duplicates from an amqplib instrumentation.
    expect(spans.filter((span) => span.kind === OTLP_KIND.producer).map(serviceOf)).toEqual(['claims']);
    expect(spans.filter((span) => span.kind === OTLP_KIND.consumer).map(serviceOf)).toEqual(['evidence']);

    // Every access line of a request carries its trace and span ids; the intake's lines carry the caller's trace.
    const accessLines = [stack.gateway, stack.claims]
      .map((process) =>
        process
          .output()
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line)),
      )
      .map((lines) => lines.filter((line) => line.msg === 'request completed'));
    for (const lines of accessLines) {
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines)
        expect(line).toMatchObject({ trace_id: expect.stringMatching(/^[0-9a-f]{32}$/), span_id: expect.stringMatching(/^[0-9a-f]{16}$/) });
      const intakeLine = lines.find((line) => line.req.method === 'POST' && line.res.status === 201)!;
      expect(intakeLine.trace_id).toBe(traceId);
      expect(spans.map((span) => span.spanId)).toContain(intakeLine.span_id);
    }
  }, 60000);
});
