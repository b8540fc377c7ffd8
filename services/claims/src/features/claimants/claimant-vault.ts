import path from 'node:path';
import type { Knex } from '@platform/db';
import { awsKmsKeyVault, keyRing, localKeyVault, type KeyVault } from '@platform/privacy';
import { claimantPrivacy, type ClaimantPrivacy } from './claimant-keys';

interface PrivacyConfig {
  PRIVACY_ENCRYPTION: boolean;
  KEY_VAULT: string;
  KMS_KEY_ID?: string;
  KMS_REGION?: string;
  KMS_ENDPOINT?: string;
  PRIVACY_KEK_FILE?: string;
  PRIVACY_RETIRED_KEK_FILES?: string;
}

/** The key-encryption key's file with KEY_VAULT=local and no PRIVACY_KEK_FILE, beside the service's other development keys. */
export function localKekFile(dataDir: string): string {
  return path.join(dataDir, 'claims', 'privacy-kek.key');
}

/** The files of PRIVACY_RETIRED_KEK_FILES, in order, blanks ignored. */
function retiredKekFiles(config: Pick<PrivacyConfig, 'PRIVACY_RETIRED_KEK_FILES'>): string[] {
  return (config.PRIVACY_RETIRED_KEK_FILES ?? '')
    .split(',')
    .map((file) => file.trim())
    .filter((file) => file !== '');
}

function currentKeyVault(config: PrivacyConfig, dataDir: string): KeyVault {
  if (config.KEY_VAULT === 'aws-kms')
    return awsKmsKeyVault({
      keyId: config.KMS_KEY_ID!,
      region: config.KMS_REGION ?? process.env.AWS_REGION ?? 'us-east-1',
      endpoint: config.KMS_ENDPOINT,
    });
  // a provided key is read at once (start fails without it); the development one is made on first use
  if (config.PRIVACY_KEK_FILE) return localKeyVault(config.PRIVACY_KEK_FILE, { generate: false });
  return localKeyVault(localKekFile(dataDir));
}

/** The configured KEK, with the retired ones (read at once) to unwrap what they wrapped until it is rewrapped. */
export function keyVaultFrom(config: PrivacyConfig, dataDir: string): KeyVault {
  const current = currentKeyVault(config, dataDir);
  const retired = retiredKekFiles(config).map((file) => localKeyVault(file, { generate: false }));
  return retired.length === 0 ? current : keyRing(current, retired);
}

const instances = new WeakMap<Knex, ClaimantPrivacy>();

/**
 * The service's one ClaimantPrivacy (one key cache), for the database handle every feature is given:
 * features call this with their deps instead of each building a vault.
 */
export function claimantPrivacyFor(deps: { db: Knex; dataDir: string }, config: PrivacyConfig): ClaimantPrivacy {
  let privacy = instances.get(deps.db);
  if (!privacy) {
    privacy = claimantPrivacy(deps.db, keyVaultFrom(config, deps.dataDir), config.PRIVACY_ENCRYPTION);
    instances.set(deps.db, privacy);
  }
  return privacy;
}
