import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import request from 'supertest';
import { TEST_JWT_SECRET, bearer, eventually } from '@platform/testing';
import { findCosignature, formatWitnessVerifierKey } from '../packages/witness/src';
import { appendAuditRecord } from '../services/evidence/src/shared/audit-append';
import { takeCheckpoint } from '../services/evidence/src/features/audit/audit-checkpoints';
import { createCheckpointSigner, parseSigningKey } from '../services/evidence/src/features/audit/checkpoint-signer';
import { newSigningKey, startAuditTestService, type AuditTestService } from '../services/evidence/src/testing/audit-test-service';
import { startClaimsTestService, type ClaimsTestService } from '../services/claims/src/testing/claims-test-service';
import { ownPolicyFnol } from './e2e/fnol';
import { startPlatform, type PlatformProcess } from './e2e/platform-process';

const witnessKey = generateKeyPairSync('ed25519').privateKey;
const WITNESS = 'claims-hosted-witness';

describe('the witness hosted by the claims service', () => {
  let evidence: AuditTestService;
  let claims: ClaimsTestService;
  const signer = () => createCheckpointSigner(parseSigningKey(evidence.config.AUDIT_SIGNING_KEY!));
  const append = (n: number) =>
    Array.from({ length: n }).reduce<Promise<unknown>>(
      (previous, _, i) =>
        previous.then(() =>
          appendAuditRecord(evidence.service.deps.db, {
            action: 'evidence.test_happened',
            source: 'evidence',
            entity_type: 'run',
            entity_id: 'r',
            actor: 'a',
            data: { i },
          }),
        ),
      Promise.resolve(),
    );

  beforeAll(async () => {
    evidence = await startAuditTestService({
      AUDIT_SIGNING_KEY: newSigningKey(),
      AUDIT_WITNESS_KEYS: formatWitnessVerifierKey(WITNESS, witnessKey),
    });
    await append(3);
    await takeCheckpoint(evidence.service.deps.db, signer(), evidence.config.EVIDENCE_EXCHANGE);
    claims = await startClaimsTestService({
      WITNESS_EVIDENCE_URL: evidence.service.url,
      WITNESS_NAME: WITNESS,
      WITNESS_KEY: witnessKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      WITNESS_LOG_VERIFIER_KEY: signer().verifierKey,
      WITNESS_LOG_JWT_SECRET: TEST_JWT_SECRET,
      WITNESS_POLL_INTERVAL_MS: '200',
    });
  });
  afterAll(async () => {
    await claims?.stop();
    await evidence?.stop();
  });

  it('cosigns the log into the claims database, then refuses a truncated log with a witness.consistency_failed event', async () => {
    await eventually(async () => (await evidence.service.deps.db('audit_cosignatures').where({ seq: 3, witness: WITNESS })).length === 1);
    expect(await claims.db('witness_checkpoints').pluck('size')).toEqual(['3']);

    for (const table of ['audit_log', 'audit_leaves', 'audit_tree_nodes', 'audit_checkpoints'])
      await evidence.superuser(`ALTER TABLE ${table} DISABLE TRIGGER USER`);
    await evidence.superuser('DELETE FROM audit_log WHERE seq > 2');
    await evidence.superuser('DELETE FROM audit_leaves WHERE seq > 2');
    await evidence.superuser('DELETE FROM audit_tree_nodes WHERE (idx + 1) * (1::bigint << level) > 2');
    await evidence.superuser('DELETE FROM audit_checkpoints');
    for (const table of ['audit_log', 'audit_leaves', 'audit_tree_nodes', 'audit_checkpoints'])
      await evidence.superuser(`ALTER TABLE ${table} ENABLE TRIGGER USER`);
    await takeCheckpoint(evidence.service.deps.db, signer(), evidence.config.EVIDENCE_EXCHANGE);

    const event = await eventually(async () => claims.events.received.find((e) => e.body.type === 'witness.consistency_failed'));
    expect(event.body.data).toMatchObject({ reason: 'truncated', cosigned_size: 3, offered_size: 2 });
    expect(await claims.db('witness_refusals').pluck('reason')).toEqual(['truncated']);
    const metrics = await (await fetch(`${claims.url}/metrics`)).text();
    expect(metrics).toMatch(/witness_consistency_failures_total\{reason="truncated"[^}]*\} 1/);
    await eventually(async () => (await evidence.service.deps.db('audit_witness_refusals')).length === 1);
  });
});

describe('the witness pnpm start hosts in development', () => {
  const SECRET = 'witness-start-secret-0123456789abcdef';
  const key = generateKeyPairSync('ed25519').privateKey;
  let platform: PlatformProcess;

  beforeAll(async () => {
    platform = await startPlatform({ AUTH_JWT_SECRET: SECRET, WITNESS_KEY: key.export({ type: 'pkcs8', format: 'pem' }).toString() });
  }, 120000);
  afterAll(async () => {
    await platform?.stop();
  });

  it('is named on the ready line by the key it cosigns with (WITNESS_KEY when given), and cosigns a new record within seconds', async () => {
    const verifierKey = formatWitnessVerifierKey('claims-platform-witness', key);
    expect(platform.readyLine).toContain(` · witness ${verifierKey} · `);
    await request(platform.gatewayUrl).post('/api/claims/public/claims').send(ownPolicyFnol()).expect(201); // records to sign
    const auditor = await bearer('audit:read', 'examiner', { secret: SECRET });
    const cosigned = await eventually(async () => {
      const response = await fetch(`${platform.gatewayUrl}/api/evidence/audit/checkpoint`, { headers: { Authorization: auditor } });
      const note = await response.text();
      if (response.status !== 200) return undefined;
      return findCosignature(note, note.slice(0, note.indexOf('\n\n') + 1), 'claims-platform-witness', createPublicKey(key));
    }, 15000);
    expect(cosigned.witnessName).toBe('claims-platform-witness');
  });
});
