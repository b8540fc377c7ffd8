import { generateKeyPairSync } from 'node:crypto';
import request from 'supertest';
import { createDatabase } from '@platform/db';
import { runService, type RunningService } from '@platform/runtime';
import { eventConformance } from '@platform/messaging';
import { bearer, captureEvents, deleteTopology, testServiceEnv, uniqueName } from '@platform/testing';
import { readEvidenceConfig, type EvidenceConfig } from '../config';
import { evidenceEventCatalog } from '../events';
import { evidenceMigrations } from '../migrations';
import { evidenceService } from '../service';
import { evidenceStorage } from '../features/evidence';

/** People of the tests: who writes, who approves, who examines. */
export const people = {
  writer: 'ann-writer',
  contributor: 'carl-contributor',
  approver: 'paula-approver',
  examiner: 'ed-examiner',
  privacyOfficer: 'pia-privacy',
};

/**
 * The evidence service on a fresh PostgreSQL database, real RabbitMQ with unique exchange and queue
 * names, and an event capture on its exchange. Checkpoints are only taken when a test asks.
 */
export async function startWorkflowService(env: Record<string, string> = {}) {
  const testEnv = await testServiceEnv('evidence', evidenceMigrations);
  const names = {
    EVIDENCE_EXCHANGE: uniqueName('evidence'),
    CLAIMS_EXCHANGE: uniqueName('claims'),
    CLAIM_EVENTS_QUEUE: uniqueName('claim-events'),
  };
  const signingKey = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
  const config: EvidenceConfig = readEvidenceConfig({
    ...testEnv.env,
    ...names,
    AUDIT_SIGNING_KEY: signingKey,
    AUDIT_CHECKPOINT_EVERY: '1000000',
    AUDIT_CHECKPOINT_INTERVAL_MS: '3600000',
    AUDIT_CHECKPOINT_DELAY_MS: '3600000',
    PUBLIC_BASE_URL: 'http://binders.example',
    ...env,
  });
  const events = await captureEvents(names.EVIDENCE_EXCHANGE);
  const service: RunningService = await runService(evidenceService(config), config);
  // The superuser's handle, for counts and for showing what the database itself refuses (the service runs as a role with fewer rights).
  const db = createDatabase({ url: testEnv.databaseUrl, poolMax: 2 });
  const auth = {
    writer: await bearer('evidence:write', people.writer),
    contributor: await bearer('evidence:write', people.contributor),
    approver: await bearer('evidence:approve', people.approver),
    writerApprover: await bearer('evidence:write evidence:approve', people.writer),
    contributorApprover: await bearer('evidence:approve', people.contributor),
    examiner: await bearer('audit:read', people.examiner),
    privacyOfficer: await bearer('privacy:manage', people.privacyOfficer),
    nobody: await bearer('claims:read', 'someone'),
  };

  /** Rows of the audit log and the outbox: what a change adds and a rejected request must not. */
  const counts = async () => {
    const [{ count: audit }] = await db('audit_log').count({ count: '*' });
    const [{ count: outbox }] = await db('outbox').count({ count: '*' });
    return { audit: Number(audit), outbox: Number(outbox) };
  };

  return {
    service,
    config,
    db,
    events,
    auth,
    dataDir: testEnv.dataDir,
    /** The evidence file storage the service uses (local under DATA_DIR, or S3 when OBJECT_STORE_URL is passed). */
    files: evidenceStorage(config, testEnv.dataDir),
    http: () => request(service.url),
    counts,

    /**
     * Runs `change` and checks it appended exactly one audit record (`action`, about `entityId`) and
     * published exactly one event of that type, the one the record names.
     */
    async expectOneChange<T>(action: string, change: () => Promise<T>, entityId: (result: T) => string): Promise<T> {
      const before = await counts();
      const result = await change();
      const after = await counts();
      expect(after.audit - before.audit).toBe(1);
      expect(after.outbox - before.outbox).toBe(1);
      const [record] = await db('audit_log').orderBy('seq', 'desc').limit(1);
      expect(record).toMatchObject({ action, source: 'evidence', entity_id: entityId(result) });
      await events.waitFor((received) => received.some((event) => event.body.id === record.event_id));
      const published = events.received.filter(
        (event) => event.routingKey === action && event.body.subject === record.entity_id && event.body.id === record.event_id,
      );
      expect(published).toHaveLength(1);
      expect(published[0]).toMatchObject({ contentType: 'application/cloudevents+json', persistent: true, messageId: record.event_id });
      return result;
    },

    /** Runs a request that must be refused, and checks it left no audit record and no event behind. */
    async expectNoChange<T>(refused: () => Promise<T>): Promise<T> {
      const before = await counts();
      const result = await refused();
      expect(await counts()).toEqual(before);
      return result;
    },

    /** Also checks that every event the service published is exactly as /asyncapi.json documents it. */
    async stop() {
      const undocumented = events.received.flatMap((event) => eventConformance(evidenceEventCatalog, event.body));
      await service?.close();
      await events.close();
      await db.destroy();
      await testEnv.cleanup();
      await deleteTopology([names.EVIDENCE_EXCHANGE, names.CLAIMS_EXCHANGE], [names.CLAIM_EVENTS_QUEUE, `${names.CLAIM_EVENTS_QUEUE}.dlq`]);
      expect(undocumented).toEqual([]);
    },
  };
}

export type WorkflowService = Awaited<ReturnType<typeof startWorkflowService>>;

/** A control with one version, created through the API. */
export async function createControl(kit: WorkflowService, fields: Record<string, unknown> = {}) {
  const response = await kit
    .http()
    .post('/api/evidence/controls')
    .set('Authorization', kit.auth.writer)
    .send({
      key: uniqueName('AC')
        .replace(/[^A-Za-z0-9._:-]/g, '')
        .slice(-30),
      title: 'Access reviews',
      frequency: 'quarterly',
      ...fields,
    })
    .expect(201);
  return response.body as { control_id: string; key: string; current_version: { control_version_id: string; version: number } };
}

let periodDay = 0;
/** An open run of a fresh period (each call a different day of 2026), created through the API. */
export async function createRun(kit: WorkflowService, controlVersionId: string, creator = kit.auth.writer) {
  periodDay += 1;
  const start = new Date(Date.UTC(2026, 0, 1) + periodDay * 86400000).toISOString().slice(0, 10);
  const response = await kit
    .http()
    .post('/api/evidence/runs')
    .set('Authorization', creator)
    .send({ control_version_id: controlVersionId, period_start: start, period_end: start })
    .expect(201);
  return response.body as { run_id: string; period_start: string; period_end: string; status: string };
}
