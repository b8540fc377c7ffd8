import { inProduction, variable } from '@platform/config';
import { objectStoreVariables, scanningVariables } from '@platform/files';
import { readServiceConfig } from '@platform/runtime';

export const evidenceVariables = {
  PORT: variable.int('Port of the evidence service', 3002, 0, 65535),
  EVIDENCE_EXCHANGE: variable.string('Topic exchange the evidence service publishes to', 'evidence.events'),
  CLAIMS_EXCHANGE: variable.string('Topic exchange of claim events to consume', 'claims.events'),
  CLAIM_EVENTS_QUEUE: variable.string(
    'Durable queue of claim events for the audit log (its dead letters go to <queue>.dlq)',
    'evidence.claim-events',
  ),
  CONSUMER_PREFETCH: variable.int('Unacknowledged claim events held at once', 20, 1, 1000),
  CONSUMER_MAX_ATTEMPTS: variable.int('Failed attempts before a claim event is dead-lettered', 5, 1, 100),
  EVIDENCE_MAX_BYTES: variable.int('Largest accepted evidence file, in bytes', 25 * 1024 * 1024, 1),
  ...scanningVariables,
  ...objectStoreVariables,
  AUDIT_SIGNING_KEY: variable.string(
    'Ed25519 private key (PKCS#8 PEM or base64 DER) that signs audit checkpoints; generated into DATA_DIR in development',
  ),
  AUDIT_CHECKPOINT_EVERY: variable.int('Take a signed checkpoint after this many new audit records', 100, 1),
  AUDIT_CHECKPOINT_DELAY_MS: variable.int(
    '…or this long after a record is appended, covering every record appended meanwhile (a quiet log is signed within about a second)',
    500,
    10,
  ),
  AUDIT_BINDER_COSIGN_WAIT_MS: variable.int(
    'With AUDIT_WITNESS_KEYS, how long building a binder waits for every witness to cosign the checkpoint covering its run (then it is built with what is there)',
    5000,
    0,
  ),
  AUDIT_CHECKPOINT_INTERVAL_MS: variable.int('…or after this long with new records (those of other replicas too)', 30000, 100),
  AUDIT_WITNESS_KEYS: variable.list(
    'Comma-separated C2SP verifier keys (cosignature/v1) of the witnesses whose cosignatures the audit log accepts and serves',
  ),
  AUDIT_WATCH_INTERVAL_MS: variable.int(
    'How often the background verifier checks the audit records appended since the last verified tree head; 0 turns it off',
    60000,
    0,
  ),
  AUDIT_VERIFY_PAGE_SIZE: variable.int(
    'Audit records read per query while verifying the chain (memory stays bounded by it)',
    1000,
    1,
    10000,
  ),
  PUBLIC_BASE_URL: variable.string('Base URL used in download links', 'http://localhost:8080'),
  RUN_SCHEDULER: variable.bool(
    'Open a run for every due control (GET /api/evidence/controls/due) as its period starts; safe on several replicas',
    false,
  ),
  RUN_SCHEDULER_INTERVAL_MS: variable.int('How often the run scheduler looks for due controls', 60000, 100),
};

export type EvidenceConfig = ReturnType<typeof readEvidenceConfig>;

export function readEvidenceConfig(env: NodeJS.ProcessEnv = process.env) {
  return readServiceConfig(evidenceVariables, env, [
    inProduction((c) => !c.AUDIT_SIGNING_KEY && 'AUDIT_SIGNING_KEY must be set in production'),
  ]);
}
