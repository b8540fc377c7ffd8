import { ConfigError } from '@platform/config';
import { readClaimsConfig } from './config';

const production = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://claims@db/claims',
  AMQP_URL: 'amqp://broker',
  AUTH_JWT_SECRET: 'a-production-secret-of-enough-length-0123',
  SMTP_URL: 'smtp://mail.example.com',
  OBJECT_STORE_URL: 's3://claims-files',
  PRIVACY_KEK_FILE: '/etc/claims-platform/privacy-kek/kek',
};

describe('claims configuration', () => {
  it('refuses embedded defaults in production, naming the variable', () => {
    expect(() => readClaimsConfig({ NODE_ENV: 'production' })).toThrow(/DATABASE_URL must be set in production/);
    expect(() => readClaimsConfig({ ...production, AMQP_URL: undefined })).toThrow(/AMQP_URL must be set in production/);
  });

  it('refuses plain-http claimant links in production', () => {
    expect(() => readClaimsConfig(production)).toThrow(ConfigError);
    expect(() => readClaimsConfig(production)).toThrow(/PUBLIC_BASE_URL must be an https URL/);
    expect(readClaimsConfig({ ...production, PUBLIC_BASE_URL: 'https://claims.example.com' }).PUBLIC_BASE_URL).toBe(
      'https://claims.example.com',
    );
  });

  it('refuses production without a channel to send new access links through', () => {
    const https = { ...production, PUBLIC_BASE_URL: 'https://claims.example.com' };
    expect(() => readClaimsConfig({ ...https, SMTP_URL: undefined, SMS_WEBHOOK_URL: undefined })).toThrow(
      /SMTP_URL or SMS_WEBHOOK_URL must be set in production/,
    );
    expect(readClaimsConfig({ ...https, SMS_WEBHOOK_URL: 'https://sms.example.com/send' }).NODE_ENV).toBe('production');
  });

  it('refuses a generated key-encryption key in production, which each replica would make its own, unless one replica is declared', () => {
    const https = { ...production, PUBLIC_BASE_URL: 'https://claims.example.com' };
    expect(() => readClaimsConfig({ ...https, PRIVACY_KEK_FILE: undefined })).toThrow(
      /KEY_VAULT=local needs PRIVACY_KEK_FILE in production: a key-encryption key every replica is given/,
    );
    expect(readClaimsConfig(https).PRIVACY_KEK_FILE).toBe('/etc/claims-platform/privacy-kek/kek');
    expect(readClaimsConfig({ ...https, PRIVACY_KEK_FILE: undefined, LOCAL_FILES_SINGLE_REPLICA: 'true' }).KEY_VAULT).toBe('local');
    expect(readClaimsConfig({ ...https, PRIVACY_KEK_FILE: undefined, KEY_VAULT: 'aws-kms', KMS_KEY_ID: 'alias/claims' }).KEY_VAULT).toBe(
      'aws-kms',
    );
    // outside production the key is made under DATA_DIR on first use
    expect(readClaimsConfig({}).PRIVACY_KEK_FILE).toBeUndefined();
  });

  it('runs on embedded defaults outside production', () => {
    const config = readClaimsConfig({});
    expect(config).toMatchObject({
      PORT: 3001,
      DATA_DIR: './data',
      DATABASE_URL: undefined,
      AMQP_URL: undefined,
      ATTACHMENT_MAX_BYTES: 25 * 1024 * 1024,
    });
  });
});
