import { randomBytes } from 'node:crypto';
import { isSealedBytes, isSealedText, openBytes, openText, sealBytes, sealText } from './seal';

const key = randomBytes(32);
const context = 'claims.claimant_email';

function flipByteOf(sealed: string, index: number): string {
  const bytes = Buffer.from(sealed.slice('pv1:'.length), 'base64url');
  bytes[index] ^= 0x01;
  return `pv1:${bytes.toString('base64url')}`;
}

describe('sealText / openText', () => {
  it('round-trips any text, including empty and non-ASCII', () => {
    for (const text of ['', 'Ana Núñez', 'ana@example.com', '+44 7700 900123', '汽车被偷了\n'.repeat(50)]) {
      const sealed = sealText(key, text, context);
      expect(sealed.startsWith('pv1:')).toBe(true);
      expect(sealed).not.toContain(text || '\u0000');
      expect(openText(key, sealed, context)).toBe(text);
    }
  });

  it('seals the same text differently each time (random IV)', () => {
    expect(sealText(key, 'Ana', context)).not.toBe(sealText(key, 'Ana', context));
  });

  it('never uses an IV twice, across refills of the IV pool (texts and bytes draw from one pool)', () => {
    const ivs = new Set<string>();
    for (let index = 0; index < 1500; index += 1) {
      const sealed =
        index % 2 === 0
          ? Buffer.from(sealText(key, 'Ana', context).slice(4), 'base64url')
          : sealBytes(key, Buffer.from('Ana'), context).subarray(4);
      ivs.add(sealed.subarray(0, 12).toString('hex'));
    }
    expect(ivs.size).toBe(1500);
  });

  it('refuses a tampered IV, ciphertext or tag', () => {
    const sealed = sealText(key, 'a description of the loss', context);
    const length = Buffer.from(sealed.slice(4), 'base64url').length;
    for (const index of [0, 11, 12, length - 17, length - 1]) expect(() => openText(key, flipByteOf(sealed, index), context)).toThrow();
  });

  it('refuses another context (a value moved to another column) and another key', () => {
    const sealed = sealText(key, 'Ana', context);
    expect(() => openText(key, sealed, 'claims.claimant_name')).toThrow();
    expect(() => openText(randomBytes(32), sealed, context)).toThrow();
  });

  it('refuses a truncated value', () => {
    expect(() => openText(key, 'pv1:AAAA', context)).toThrow(/too short/);
  });

  it('returns a value without the pv1: prefix as it is (rows from before encryption)', () => {
    expect(isSealedText('ana@example.com')).toBe(false);
    expect(openText(key, 'ana@example.com', context)).toBe('ana@example.com');
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => sealText(randomBytes(16), 'Ana', context)).toThrow(/32 bytes/);
  });
});

describe('sealBytes / openBytes', () => {
  it('round-trips bytes behind the pv1: marker', () => {
    const bytes = randomBytes(10_000);
    const sealed = sealBytes(key, bytes, 'attachment');
    expect(isSealedBytes(sealed)).toBe(true);
    expect(sealed.length).toBe(4 + 12 + bytes.length + 16);
    expect(openBytes(key, sealed, 'attachment').equals(bytes)).toBe(true);
  });

  it('refuses tampering, another context and unsealed bytes', () => {
    const sealed = sealBytes(key, Buffer.from('photo'), 'attachment');
    const tampered = Buffer.from(sealed);
    tampered[20] ^= 0x80;
    expect(() => openBytes(key, tampered, 'attachment')).toThrow();
    expect(() => openBytes(key, sealed, 'other')).toThrow();
    expect(() => openBytes(key, Buffer.from('plain file'), 'attachment')).toThrow(/not a sealed value/);
  });
});
