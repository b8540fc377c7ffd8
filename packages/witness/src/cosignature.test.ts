import { createHash, generateKeyPairSync, verify } from 'node:crypto';
import { ed25519PublicKeyBytes } from '@platform/merkle';
import {
  cosign,
  cosignedMessage,
  cosignatureKeyHash,
  findCosignature,
  formatWitnessVerifierKey,
  parseWitnessVerifierKey,
} from './cosignature';

const body = 'example.com/log\n42\nqINS1GRFhWHwdkUeqLEoP4yEMkTBBzxBkGwGQlVlVcs=\n';

describe('cosignature/v1 (c2sp.org/tlog-cosignature)', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');

  it('signs "cosignature/v1\\ntime <t>\\n<body>" and encodes key hash ‖ big-endian time ‖ signature', () => {
    const { line, time } = cosign(body, 'witness.example', privateKey, 1700000000);
    expect(time).toBe(1700000000);
    const match = /^\u2014 witness\.example ([A-Za-z0-9+/=]+)\n$/.exec(line);
    expect(match).not.toBeNull();
    const bytes = Buffer.from(match![1], 'base64');
    expect(bytes).toHaveLength(4 + 8 + 64);
    const keyHash = createHash('sha256')
      .update(Buffer.concat([Buffer.from('witness.example\n'), Buffer.from([0x04]), ed25519PublicKeyBytes(publicKey)]))
      .digest()
      .subarray(0, 4);
    expect(bytes.subarray(0, 4)).toEqual(keyHash);
    expect(bytes.readBigUInt64BE(4)).toBe(1700000000n);
    const message = Buffer.from(`cosignature/v1\ntime 1700000000\n${body}`);
    expect(cosignedMessage(body, 1700000000)).toEqual(message);
    expect(verify(null, message, publicKey, bytes.subarray(12))).toBe(true);
  });

  it('finds a valid cosignature in a note among other signatures, and not a forged or misplaced one', () => {
    const { line } = cosign(body, 'w1', privateKey, 1700000001);
    const other = generateKeyPairSync('ed25519');
    const note = `${body}\n\u2014 example.com/log AAAAAQ${'A'.repeat(86)}==\n${line}`;
    expect(findCosignature(note, body, 'w1', publicKey)?.time).toBe(1700000001);
    expect(findCosignature(line, body, 'w1', publicKey)?.line).toBe(line);
    expect(findCosignature(note, body, 'w1', other.publicKey)).toBeUndefined();
    expect(findCosignature(line, body.replace('42', '43'), 'w1', publicKey)).toBeUndefined();
    const bytes = Buffer.from(line.split(' ')[2], 'base64');
    bytes.writeBigUInt64BE(1700000002n, 4); // a changed time is not what was signed
    expect(findCosignature(`\u2014 w1 ${bytes.toString('base64')}\n`, body, 'w1', publicKey)).toBeUndefined();
  });

  it('publishes its key as a vkey that reads back, and refuses one with a wrong key hash', () => {
    const vkey = formatWitnessVerifierKey('w1', privateKey);
    expect(vkey).toBe(
      `w1+${cosignatureKeyHash('w1', publicKey).toString('hex')}+${Buffer.concat([Buffer.from([4]), ed25519PublicKeyBytes(publicKey)]).toString('base64')}`,
    );
    const parsed = parseWitnessVerifierKey(vkey);
    expect(parsed?.witnessName).toBe('w1');
    expect(parsed!.publicKey.equals(publicKey)).toBe(true);
    expect(parseWitnessVerifierKey(vkey.replace(/^w1\+/, 'w2+'))).toBeUndefined();
  });
});
