import request from 'supertest';
import { createDatabase, type Knex } from '@platform/db';
import { runService, type RunningService } from '@platform/runtime';
import { eventConformance } from '@platform/messaging';
import { captureEvents, deleteTopology, fnolBody, testServiceEnv, uniqueName } from '@platform/testing';
import { readClaimsConfig, type ClaimsConfig } from '../config';
import { claimsEventCatalog } from '../events';
import { claimsMigrations } from '../migrations';
import { claimsService } from '../service';
import { attachmentStorage, claimFiles } from '../features/attachments';
import { claimantPrivacyFor } from '../features/claimants';

/**
 * The claims service for a test file: a fresh PostgreSQL database, the real broker on an exchange of
 * its own with every published event captured (stop() checks them against their schemas), a temporary
 * DATA_DIR, and a direct database handle for assertions (row counts) and arranging states the API
 * cannot reach (a closed claim).
 */
export async function startClaimsTestService(env: Record<string, string> = {}) {
  const testEnv = await testServiceEnv('claims', claimsMigrations);
  const exchange = uniqueName('claims');
  const config: ClaimsConfig = readClaimsConfig({
    ...testEnv.env,
    CLAIMS_EXCHANGE: exchange,
    OVERDUE_SWEEP_INTERVAL_MS: '3600000',
    ...env,
  });
  const events = await captureEvents(exchange);
  const service: RunningService = await runService(claimsService(config), config);
  const db: Knex = createDatabase({ url: testEnv.databaseUrl, poolMax: 2 });
  // the service's key file and blind-index key, through the test's own handle
  const privacy = claimantPrivacyFor({ db, dataDir: testEnv.dataDir }, config);
  return {
    service,
    url: service.url,
    config,
    events,
    db,
    dataDir: testEnv.dataDir,
    privacy,
    /** The data key of the claim's claimant, to read what the service sealed with it. */
    async claimKey(claimId: string): Promise<Buffer | null> {
      const { claimant_id } = await db('claims').where({ id: claimId }).first('claimant_id');
      return privacy.keys.keyFor(claimant_id);
    },
    /** The attachment storage the service uses (local under DATA_DIR, or S3 when OBJECT_STORE_URL is passed). */
    attachments: attachmentStorage(config, testEnv.dataDir),
    /** The claims' files opened as the service opens them (decrypted), through the test's own handle. */
    files: claimFiles({ db, dataDir: testEnv.dataDir }, config),
    /** Also checks that every event the service published is exactly as /asyncapi.json documents it. */
    async stop() {
      const undocumented = events.received.flatMap((event) => eventConformance(claimsEventCatalog, event.body));
      await service.close();
      await events.close();
      await db.destroy();
      await deleteTopology([exchange], []);
      await testEnv.cleanup();
      expect(undocumented).toEqual([]);
    },
  };
}

export type ClaimsTestService = Awaited<ReturnType<typeof startClaimsTestService>>;

/** Files a claim through the API (`fnolBody(overrides)`) and returns the 201 body (claim_id, access_token, …). */
export async function fileClaim(url: string, overrides: Record<string, unknown> = {}) {
  const response = await request(url).post('/api/claims/public/claims').send(fnolBody(overrides)).expect(201);
  return response.body as {
    claim_id: string;
    claim_number: string;
    access_token: string;
    required_documents: { type: string; received: boolean }[];
  };
}

/** Rows in each claims-core table, to show a rejected request left nothing behind. */
export async function countRows(db: Knex): Promise<Record<string, number>> {
  const tables = [
    'claims',
    'claimants',
    'status_updates',
    'deliveries',
    'attachments',
    'claim_audit',
    'idempotency_keys',
    'outbox',
    'file_placements',
  ];
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const [{ count }] = await db(table).count({ count: '*' });
    counts[table] = Number(count);
  }
  return counts;
}

/** Publishes a retention policy that keeps nothing (0 days for every closing reason): a closed claim's claimant can be erased at once. */
export async function retainNothing(url: string, privacyOfficer: string): Promise<void> {
  const policy = await request(url).get('/api/claims/retention-policy').set('Authorization', privacyOfficer).expect(200);
  await request(url)
    .put('/api/claims/retention-policy')
    .set('Authorization', privacyOfficer)
    .set('If-Match', policy.headers.etag)
    .send({ retention_days: { paid: 0, denied: 0, withdrawn: 0, duplicate: 0 }, reason: 'Tests: nothing is retained' })
    .expect(200);
}
