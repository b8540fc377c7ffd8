import { inProduction, variable, type ConfigRule } from '@platform/config';

export const privacyVariables = {
  PRIVACY_ENCRYPTION: variable.bool(
    "Seal each claimant's personal fields (name, contacts, descriptions, status-update texts) with their own data key; false writes new values in plain text (values already sealed stay readable)",
    true,
  ),
  KEY_VAULT: variable.string(
    "What wraps the claimants' data keys: `local` (a key-encryption key file, PRIVACY_KEK_FILE) or `aws-kms` (KMS_KEY_ID)",
    'local',
  ),
  PRIVACY_KEK_FILE: variable.string(
    'With KEY_VAULT=local: the key-encryption key file (base64 of 32 random bytes, `openssl rand -base64 32`), provided to every replica alike ' +
      '(a mounted Secret); read at start, never generated. Unset: `DATA_DIR/claims/privacy-kek.key`, generated on first use, which only ' +
      'one replica sees: refused in production unless LOCAL_FILES_SINGLE_REPLICA=true',
  ),
  PRIVACY_RETIRED_KEK_FILES: variable.string(
    'After a KEK rotation: comma-separated files of the earlier key-encryption keys (local, or with KEY_VAULT=aws-kms when moving off ' +
      'a local KEK), read at start and used only to unwrap keys they wrapped until the task `key-rewrap` (at start, then hourly) has ' +
      'wrapped every one again with the current KEK; remove them once `periodic_task_last_success_timestamp_seconds{task="key-rewrap"}` ' +
      'is later than the rotation and no key is left with their kek_id',
  ),
  KMS_KEY_ID: variable.string('With KEY_VAULT=aws-kms: id, ARN or alias of the symmetric KMS key that wraps data keys'),
  KMS_REGION: variable.string('With KEY_VAULT=aws-kms: the region of the KMS key; unset uses AWS_REGION'),
  KMS_ENDPOINT: variable.url('With KEY_VAULT=aws-kms: a KMS-compatible endpoint (local-kms, a VPC endpoint); unset uses AWS', [
    'https',
    'http',
  ]),
};

type PrivacySettings = {
  KEY_VAULT: string;
  PRIVACY_RETIRED_KEK_FILES?: string;
  KMS_KEY_ID?: string;
  KMS_REGION?: string;
  PRIVACY_KEK_FILE?: string;
  LOCAL_FILES_SINGLE_REPLICA?: boolean;
  NODE_ENV?: string;
};

export const privacyConfigRules: ConfigRule<PrivacySettings>[] = [
  (c: PrivacySettings) => !['local', 'aws-kms'].includes(c.KEY_VAULT) && `KEY_VAULT must be local or aws-kms, got "${c.KEY_VAULT}"`,
  (c: PrivacySettings) => c.KEY_VAULT === 'aws-kms' && !c.KMS_KEY_ID && 'KEY_VAULT=aws-kms needs KMS_KEY_ID',
  // A key generated in one replica's DATA_DIR wraps data keys the other replicas cannot open (as LOCAL_FILES_SINGLE_REPLICA).
  inProduction(
    (c: PrivacySettings) =>
      c.KEY_VAULT === 'local' &&
      !c.PRIVACY_KEK_FILE &&
      !c.LOCAL_FILES_SINGLE_REPLICA &&
      'KEY_VAULT=local needs PRIVACY_KEK_FILE in production: a key-encryption key every replica is given (a mounted Secret; ' +
        'an existing deployment points it at its DATA_DIR/claims/privacy-kek.key), or KEY_VAULT=aws-kms ' +
        '(set LOCAL_FILES_SINGLE_REPLICA=true where exactly one replica runs to keep the generated key)',
  ),
];
