import type { Express } from 'express';
import type { ServiceDeps } from '@platform/runtime';
import type { EvidenceConfig } from '../../config';
import { startCheckpointer } from './audit-checkpoints';
import { auditRouter } from './audit-routes';
import { createCheckpointSigner, loadCheckpointSigner, parseSigningKey, type CheckpointSigner } from './checkpoint-signer';

/**
 * The audit-log feature of the evidence service: its routes and its background checkpointing, sharing
 * one signing key (the configured one, or in development one generated into DATA_DIR on first use).
 */
export function auditLogFeature(config: EvidenceConfig) {
  // A configured key is checked now, so a bad one stops start-up before anything is opened.
  let signer: CheckpointSigner | undefined = config.AUDIT_SIGNING_KEY ? createCheckpointSigner(parseSigningKey(config.AUDIT_SIGNING_KEY)) : undefined;
  const signerFor = (deps: ServiceDeps) => (signer ??= loadCheckpointSigner(config.AUDIT_SIGNING_KEY, deps.dataDir, deps.logger));
  return {
    mount(app: Express, deps: ServiceDeps): void {
      signerFor(deps);
      app.use(auditRouter(deps, () => signerFor(deps), config.AUDIT_VERIFY_PAGE_SIZE));
    },
    startBackground(deps: ServiceDeps): Promise<{ stop(): Promise<void> }> {
      return startCheckpointer({
        db: deps.db,
        signer: signerFor(deps),
        exchange: config.EVIDENCE_EXCHANGE,
        logger: deps.logger,
        metrics: deps.metrics,
        every: config.AUDIT_CHECKPOINT_EVERY,
        intervalMs: config.AUDIT_CHECKPOINT_INTERVAL_MS,
      });
    },
  };
}
