import { generateKeyPairSync } from 'node:crypto';
import { createDatabase } from '@platform/db';
import { runService, type RunningService } from '@platform/runtime';
import { deleteTopology, testServiceEnv, uniqueName } from '@platform/testing';
import { readEvidenceConfig } from '../config';
import { evidenceMigrations } from '../migrations';
import { evidenceService } from '../service';

/** A fresh Ed25519 key as AUDIT_SIGNING_KEY accepts it (base64 of the PKCS#8 DER). */
export function newSigningKey(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
}

/**
 * The evidence service on a fresh database and unique exchanges/queues, for audit tests. `restart`
 * starts it again on the same database (e.g. with another signing key); `superuser` runs SQL as the
 * database owner, the way an attacker with database access would.
 */
export async function startAuditTestService(env: Record<string, string> = {}) {
  const testEnv = await testServiceEnv('evidence', evidenceMigrations);
  const names = {
    EVIDENCE_EXCHANGE: uniqueName('evidence'),
    CLAIMS_EXCHANGE: uniqueName('claims'),
    CLAIM_EVENTS_QUEUE: uniqueName('claim-events'),
  };
  let baseEnv = {
    ...testEnv.env,
    ...names,
    AUDIT_CHECKPOINT_EVERY: '1000000',
    AUDIT_CHECKPOINT_INTERVAL_MS: '3600000',
    AUDIT_CHECKPOINT_DELAY_MS: '3600000',
    ...env,
  };
  const start = async (extra: Record<string, string> = {}) => {
    baseEnv = { ...baseEnv, ...extra };
    const config = readEvidenceConfig(baseEnv);
    const service = await runService(evidenceService(config), config);
    // Connected before any test can close it (AmqpTransport.close() during its first connect leaks the connection).
    await service.deps.transport.check();
    return { config, service };
  };
  let current = await start();
  const superuser = createDatabase({ url: testEnv.databaseUrl, poolMax: 1 });
  return {
    get service(): RunningService {
      return current.service;
    },
    get config() {
      return current.config;
    },
    names,
    async restart(extra: Record<string, string> = {}) {
      await current.service.close();
      current = await start(extra);
    },
    superuser: (sql: string, params: unknown[] = []) => superuser.raw(sql, params as never[]),
    async stop() {
      await current.service.close();
      await superuser.destroy();
      await testEnv.cleanup();
      await deleteTopology([names.EVIDENCE_EXCHANGE, names.CLAIMS_EXCHANGE], [names.CLAIM_EVENTS_QUEUE, `${names.CLAIM_EVENTS_QUEUE}.dlq`]);
    },
  };
}

export type AuditTestService = Awaited<ReturnType<typeof startAuditTestService>>;
