import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { keyRing, localKeyVault } from './key-vault';

describe('localKeyVault', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'key-vault-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('generates a 32-byte key file readable by its owner only, on first use', async () => {
    const keyFile = path.join(dir, 'claims', 'privacy-kek');
    const vault = localKeyVault(keyFile);
    expect(() => statSync(keyFile)).toThrow(); // nothing until first use
    await vault.wrapKey(randomBytes(32));
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64')).toHaveLength(32);
  });

  it('round-trips data keys, also through a second vault on the same file (a restart)', async () => {
    const keyFile = path.join(dir, 'kek');
    const dataKey = randomBytes(32);
    const wrapped = await localKeyVault(keyFile).wrapKey(dataKey);
    expect(wrapped).not.toContain(dataKey.toString('base64url'));
    const restarted = localKeyVault(keyFile);
    expect((await restarted.unwrapKey(wrapped)).equals(dataKey)).toBe(true);
    expect(restarted.kekId).toBe(localKeyVault(keyFile).kekId);
    expect(restarted.kekId).toMatch(/^local:[0-9a-f]{16}$/);
  });

  it('refuses a key wrapped by another key file, or altered', async () => {
    const wrapped = await localKeyVault(path.join(dir, 'one')).wrapKey(randomBytes(32));
    const other = localKeyVault(path.join(dir, 'two'));
    await expect(other.unwrapKey(wrapped)).rejects.toThrow();
    expect(other.kekId).not.toBe(localKeyVault(path.join(dir, 'one')).kekId);
    const bytes = Buffer.from(wrapped, 'base64url');
    bytes[bytes.length - 1] ^= 1;
    await expect(localKeyVault(path.join(dir, 'one')).unwrapKey(bytes.toString('base64url'))).rejects.toThrow();
  });

  it('refuses a key file that does not hold 32 bytes', async () => {
    const keyFile = path.join(dir, 'short');
    writeFileSync(keyFile, randomBytes(16).toString('base64'));
    await expect(localKeyVault(keyFile).wrapKey(randomBytes(32))).rejects.toThrow(/32 bytes, not 16/);
  });

  describe('with a provided key file (generate: false, a mounted Secret)', () => {
    it('wraps with the key in the file, as a vault that generated it does (trailing newline of `openssl rand -base64 32` allowed)', async () => {
      const keyFile = path.join(dir, 'secret-kek');
      writeFileSync(keyFile, `${randomBytes(32).toString('base64')}\n`, { mode: 0o440 });
      const dataKey = randomBytes(32);
      const wrapped = await localKeyVault(keyFile, { generate: false }).wrapKey(dataKey);
      expect((await localKeyVault(keyFile).unwrapKey(wrapped)).equals(dataKey)).toBe(true);
      expect(localKeyVault(keyFile, { generate: false }).kekId).toBe(localKeyVault(keyFile).kekId);
    });

    it('refuses at once, before any use, a file that is missing (and makes none) or does not hold 32 bytes', () => {
      const missing = path.join(dir, 'mounted', 'kek');
      expect(() => localKeyVault(missing, { generate: false })).toThrow(`the key-encryption key file ${missing} cannot be read (ENOENT)`);
      expect(() => statSync(missing)).toThrow();
      const short = path.join(dir, 'short');
      writeFileSync(short, randomBytes(16).toString('base64'));
      expect(() => localKeyVault(short, { generate: false })).toThrow(/32 bytes, not 16/);
    });
  });
});

describe('keyRing (a KEK rotation)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'key-ring-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('wraps with the current KEK and unwraps by the stored kek id, with the current or a retired KEK', async () => {
    const retired = localKeyVault(path.join(dir, 'old'));
    const current = localKeyVault(path.join(dir, 'new'));
    const oldKey = randomBytes(32);
    const wrappedBefore = await retired.wrapKey(oldKey);
    const ring = keyRing(current, [retired]);
    expect(ring.kekId).toBe(current.kekId);
    expect((await ring.unwrapKey(wrappedBefore, retired.kekId)).equals(oldKey)).toBe(true);
    const newKey = randomBytes(32);
    const wrappedNow = await ring.wrapKey(newKey);
    expect((await current.unwrapKey(wrappedNow)).equals(newKey)).toBe(true);
    expect((await ring.unwrapKey(wrappedNow, current.kekId)).equals(newKey)).toBe(true);
    expect((await ring.unwrapKey(wrappedNow)).equals(newKey)).toBe(true);
  });

  it('names the KEK it lacks: a key wrapped by a KEK neither current nor retired', async () => {
    const gone = localKeyVault(path.join(dir, 'gone'));
    const wrapped = await gone.wrapKey(randomBytes(32));
    const current = localKeyVault(path.join(dir, 'new'));
    await expect(keyRing(current, []).unwrapKey(wrapped, gone.kekId)).rejects.toThrow(
      `the key-encryption key ${gone.kekId} that wrapped this key is not configured (current: ${current.kekId})`,
    );
    // a single vault asked for another KEK's key says the same, rather than failing to authenticate it
    await expect(current.unwrapKey(wrapped, gone.kekId)).rejects.toThrow(/not configured/);
  });
});
