import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { awsKmsKeyVault } from './aws-kms-key-vault';
import { openBytes, sealBytes } from './seal';

/**
 * No KMS-compatible server (local-kms, LocalStack) installs on this machine, so the adapter is tested
 * against this in-test double of the KMS JSON protocol (POST /, `X-Amz-Target: TrentService.<Operation>`,
 * `application/x-amz-json-1.1`, blobs in base64, errors as `{ "__type", "message" }`). It holds one key per
 * KeyId, binds ciphertexts to their key and encryption context, as KMS does, and records what it was sent.
 */
function kmsDouble() {
  const keys = new Map<string, Buffer>();
  const calls: { target: string; body: Record<string, unknown>; signed: boolean }[] = [];
  const keyFor = (keyId: string) => keys.get(keyId) ?? keys.set(keyId, randomBytes(32)).get(keyId)!;
  const contextOf = (body: Record<string, unknown>) => JSON.stringify(body.EncryptionContext ?? {});

  const handle = (target: string, body: Record<string, unknown>) => {
    const keyId = String(body.KeyId);
    if (target === 'TrentService.Encrypt') {
      const sealed = sealBytes(keyFor(keyId), Buffer.from(String(body.Plaintext), 'base64'), contextOf(body));
      return { CiphertextBlob: sealed.toString('base64'), KeyId: keyId, EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' };
    }
    if (target === 'TrentService.Decrypt') {
      const plaintext = openBytes(keyFor(keyId), Buffer.from(String(body.CiphertextBlob), 'base64'), contextOf(body));
      return { Plaintext: plaintext.toString('base64'), KeyId: keyId, EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' };
    }
    throw new Error(`unsupported ${target}`);
  };

  const server: Server = createServer(async (request: IncomingMessage, response) => {
    let text = '';
    for await (const chunk of request) text += chunk;
    const target = String(request.headers['x-amz-target']);
    const body = JSON.parse(text) as Record<string, unknown>;
    calls.push({ target, body, signed: String(request.headers.authorization).startsWith('AWS4-HMAC-SHA256 ') });
    response.setHeader('content-type', 'application/x-amz-json-1.1');
    try {
      response.end(JSON.stringify(handle(target, body)));
    } catch (error) {
      response.statusCode = 400;
      response.end(JSON.stringify({ __type: 'InvalidCiphertextException', message: (error as Error).message }));
    }
  });
  return { server, calls };
}

describe('awsKmsKeyVault against a KMS JSON-protocol double', () => {
  const { server, calls } = kmsDouble();
  let endpoint: string;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const vaultFor = (keyId: string) =>
    awsKmsKeyVault({ keyId, region: 'eu-west-1', endpoint, accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' });

  it('wraps with Encrypt and unwraps with Decrypt, naming the configured key and a purpose', async () => {
    const vault = vaultFor('alias/claims-privacy');
    const dataKey = randomBytes(32);
    const wrapped = await vault.wrapKey(dataKey);
    expect((await vault.unwrapKey(wrapped)).equals(dataKey)).toBe(true);
    expect(vault.kekId).toBe('alias/claims-privacy');
    expect(calls.map((call) => call.target)).toEqual(['TrentService.Encrypt', 'TrentService.Decrypt']);
    for (const call of calls) {
      expect(call.signed).toBe(true);
      expect(call.body).toMatchObject({ KeyId: 'alias/claims-privacy', EncryptionContext: { purpose: 'claimant-data-key' } });
    }
    expect(calls[0].body.Plaintext).toBe(dataKey.toString('base64'));
  });

  it('fails to unwrap a key wrapped by another KMS key, or altered', async () => {
    const wrapped = await vaultFor('key-one').wrapKey(randomBytes(32));
    await expect(vaultFor('key-two').unwrapKey(wrapped)).rejects.toThrow();
    const bytes = Buffer.from(wrapped, 'base64');
    bytes[bytes.length - 1] ^= 1;
    await expect(vaultFor('key-one').unwrapKey(bytes.toString('base64'))).rejects.toMatchObject({
      name: 'InvalidCiphertextException',
    });
  });

  it('unwraps a key wrapped before KMS_KEY_ID changed by naming the key that wrapped it (its stored kek_id)', async () => {
    const dataKey = randomBytes(32);
    const before = vaultFor('key-before');
    const wrapped = await before.wrapKey(dataKey);
    const after = vaultFor('key-after');
    expect((await after.unwrapKey(wrapped, before.kekId)).equals(dataKey)).toBe(true);
    expect(calls.at(-1)!.body.KeyId).toBe('key-before');
  });
});
