import { variable, type ConfigRule } from '@platform/config';

export const privacyVariables = {
  PRIVACY_ENCRYPTION: variable.bool(
    "Seal each claimant's personal fields (name, contacts, descriptions, status-update texts) with their own data key; false writes new values in plain text (values already sealed stay readable)",
    true,
  ),
  KEY_VAULT: variable.string(
    "What wraps the claimants' data keys: `local` (a key file under DATA_DIR, generated on first use; every replica must share it) or `aws-kms` (KMS_KEY_ID)",
    'local',
  ),
  KMS_KEY_ID: variable.string('With KEY_VAULT=aws-kms: id, ARN or alias of the symmetric KMS key that wraps data keys'),
  KMS_REGION: variable.string('With KEY_VAULT=aws-kms: the region of the KMS key; unset uses AWS_REGION'),
  KMS_ENDPOINT: variable.url('With KEY_VAULT=aws-kms: a KMS-compatible endpoint (local-kms, a VPC endpoint); unset uses AWS', [
    'https',
    'http',
  ]),
};

type PrivacySettings = { KEY_VAULT: string; KMS_KEY_ID?: string; KMS_REGION?: string };

export const privacyConfigRules: ConfigRule<PrivacySettings>[] = [
  (c: PrivacySettings) => !['local', 'aws-kms'].includes(c.KEY_VAULT) && `KEY_VAULT must be local or aws-kms, got "${c.KEY_VAULT}"`,
  (c: PrivacySettings) => c.KEY_VAULT === 'aws-kms' && !c.KMS_KEY_ID && 'KEY_VAULT=aws-kms needs KMS_KEY_ID',
];
