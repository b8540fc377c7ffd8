import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import type { KeyVault } from './key-vault';

export interface AwsKmsKeyVaultOptions {
  /** Key id, ARN or alias of a symmetric KMS key. */
  keyId: string;
  region: string;
  /** A KMS-compatible endpoint (local-kms, a VPC endpoint); unset uses AWS's regional endpoint. */
  endpoint?: string;
  /** Without explicit keys the SDK's default chain applies (AWS_* variables, web identity, instance role). */
  accessKeyId?: string;
  secretAccessKey?: string;
}

/** Binds every wrapped key to its purpose: KMS refuses to decrypt it under another context. */
const ENCRYPTION_CONTEXT = { purpose: 'claimant-data-key' };

/**
 * Data keys wrapped by a KMS key: wrap = Encrypt with the configured key, unwrap = Decrypt naming the key that
 * wrapped it (a key wrapped before KMS_KEY_ID changed opens with its own, where the role may still use it).
 */
export function awsKmsKeyVault(options: AwsKmsKeyVaultOptions): KeyVault {
  const client = new KMSClient({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.accessKeyId && options.secretAccessKey
      ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
      : {}),
  });
  return {
    kekId: options.keyId,
    wrapKey: async (dataKey) => {
      const { CiphertextBlob } = await client.send(
        new EncryptCommand({ KeyId: options.keyId, Plaintext: dataKey, EncryptionContext: ENCRYPTION_CONTEXT }),
      );
      if (!CiphertextBlob) throw new Error('KMS Encrypt returned no ciphertext');
      return Buffer.from(CiphertextBlob).toString('base64');
    },
    unwrapKey: async (wrapped, wrappedBy = options.keyId) => {
      const { Plaintext } = await client.send(
        new DecryptCommand({
          KeyId: wrappedBy,
          CiphertextBlob: Buffer.from(wrapped, 'base64'),
          EncryptionContext: ENCRYPTION_CONTEXT,
        }),
      );
      if (!Plaintext) throw new Error('KMS Decrypt returned no plaintext');
      return Buffer.from(Plaintext);
    },
  };
}
