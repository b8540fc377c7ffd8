import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openBytes, sealBytes } from './seal';

/**
 * Wraps and unwraps data keys with a key-encryption key (KEK) that never leaves the vault (a key file, a KMS).
 * Destroying a wrapped data key makes everything sealed with it unreadable (crypto-shredding).
 */
export interface KeyVault {
  /** Names the key-encryption key, stored next to each wrapped key (which KEK to ask after a rotation). */
  readonly kekId: string;
  wrapKey(dataKey: Buffer): Promise<string>;
  /**
   * `kekId`: the KEK that wrapped it, as stored beside it (unset: this vault's own). Throws when the wrapped key
   * was altered, or wrapped by a KEK this vault does not hold.
   */
  unwrapKey(wrapped: string, kekId?: string): Promise<Buffer>;
}

/**
 * A KEK rotation's vault: wraps with `current`, unwraps with whichever of `current` and the `retired` vaults
 * wrapped the key (by its stored `kekId`), so keys wrapped before the rotation open until they are rewrapped.
 */
export function keyRing(current: KeyVault, retired: KeyVault[]): KeyVault {
  const byId = new Map([...retired, current].map((vault) => [vault.kekId, vault]));
  return {
    get kekId() {
      return current.kekId;
    },
    wrapKey: (dataKey) => current.wrapKey(dataKey),
    unwrapKey: async (wrapped, kekId) => {
      const vault = kekId === undefined ? current : byId.get(kekId);
      if (!vault) throw new Error(`the key-encryption key ${kekId} that wrapped this key is not configured (current: ${current.kekId})`);
      return vault.unwrapKey(wrapped, kekId);
    },
  };
}

const KEK_BYTES = 32;
const WRAP_CONTEXT = 'privacy/data-key';

/**
 * A KEK kept in `keyFile` (base64 of 32 random bytes). `generate` (development): made with mode 0600 on first
 * use, as the development audit signing key is. Otherwise the file is provided (a Secret every replica mounts)
 * and read at once, so a missing or malformed one stops the start rather than the first intake.
 */
export function localKeyVault(keyFile: string, { generate = true }: { generate?: boolean } = {}): KeyVault {
  let kek = generate ? undefined : readKek(keyFile);
  const load = (): Buffer => (kek ??= readOrCreateKek(keyFile));
  let kekId: string | undefined;
  const ownId = () => (kekId ??= `local:${createHash('sha256').update(load()).digest('hex').slice(0, 16)}`);
  return {
    get kekId() {
      return ownId();
    },
    wrapKey: async (dataKey) => sealBytes(load(), dataKey, WRAP_CONTEXT).toString('base64url'),
    unwrapKey: async (wrapped, wrappedBy) => {
      if (wrappedBy !== undefined && wrappedBy !== ownId())
        throw new Error(`the key-encryption key ${wrappedBy} that wrapped this key is not configured (current: ${ownId()})`);
      return openBytes(load(), Buffer.from(wrapped, 'base64url'), WRAP_CONTEXT);
    },
  };
}

function readOrCreateKek(keyFile: string): Buffer {
  try {
    return parseKek(readFileSync(keyFile, 'utf8'), keyFile);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(path.dirname(keyFile), { recursive: true });
  try {
    // 'wx': when two processes start at once, the second keeps the first one's key
    writeFileSync(keyFile, `${randomBytes(KEK_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return parseKek(readFileSync(keyFile, 'utf8'), keyFile);
}

function readKek(keyFile: string): Buffer {
  try {
    return parseKek(readFileSync(keyFile, 'utf8'), keyFile);
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code) throw new Error(`the key-encryption key file ${keyFile} cannot be read (${code})`);
    throw error;
  }
}

function parseKek(text: string, keyFile: string): Buffer {
  const kek = Buffer.from(text.trim(), 'base64');
  if (kek.length !== KEK_BYTES) throw new Error(`${keyFile} must hold base64 of ${KEK_BYTES} bytes, not ${kek.length}`);
  return kek;
}
