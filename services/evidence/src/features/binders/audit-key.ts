import type { ServiceDeps } from '@platform/runtime';
import { loadCheckpointSigner } from '../audit/checkpoint-signer';
import type { AuditKey } from './manifest';

/**
 * The public half of the audit checkpoint key, for binders to ship with their checkpoint. It is the
 * key the audit feature signs with (configured, or the development key under DATA_DIR), loaded once.
 */
export function auditPublicKey(signingKey: string | undefined, deps: ServiceDeps): () => AuditKey {
  let key: AuditKey | undefined;
  return () => {
    if (!key) {
      const { keyId, publicKeyPem } = loadCheckpointSigner(signingKey, deps.dataDir, deps.logger);
      key = { keyId, publicKeyPem };
    }
    return key;
  };
}
